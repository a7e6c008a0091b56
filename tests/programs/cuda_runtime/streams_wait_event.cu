// A dependency between two streams: stream A produces (x[i] = i * i), records an event,
// and stream B waits for that event before consuming (y[i] = x[i] + x[n-1-i]); a third,
// independent stream fills z meanwhile.  cudaStreamWaitEvent's flags must be 0.
#include <cstdio>
#include <cuda_runtime.h>

__global__ void produce(int *x, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) x[i] = i * i;
}

__global__ void consume(const int *x, int *y, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) y[i] = x[i] + x[n - 1 - i];
}

__global__ void fill(int *z, int v, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) z[i] = v;
}

int main() {
    const int n = 1000;
    int *x, *y, *z;
    cudaMalloc(&x, n * sizeof(int));
    cudaMalloc(&y, n * sizeof(int));
    cudaMalloc(&z, n * sizeof(int));
    cudaStream_t a, b, c;
    cudaStreamCreateWithFlags(&a, cudaStreamNonBlocking);
    cudaStreamCreateWithFlags(&b, cudaStreamNonBlocking);
    cudaStreamCreateWithFlags(&c, cudaStreamNonBlocking);
    cudaEvent_t produced;
    cudaEventCreateWithFlags(&produced, cudaEventDisableTiming);
    produce<<<(n + 127) / 128, 128, 0, a>>>(x, n);
    cudaEventRecord(produced, a);
    printf("wait: %s\n", cudaGetErrorName(cudaStreamWaitEvent(b, produced, 0)));
    consume<<<(n + 127) / 128, 128, 0, b>>>(x, y, n);
    fill<<<(n + 127) / 128, 128, 0, c>>>(z, 7, n);
    int hy[n], hz[n];
    cudaMemcpyAsync(hy, y, sizeof(hy), cudaMemcpyDeviceToHost, b);
    cudaMemcpyAsync(hz, z, sizeof(hz), cudaMemcpyDeviceToHost, c);
    cudaStreamSynchronize(b);
    cudaStreamSynchronize(c);
    printf("y[0]=%d y[1]=%d y[499]=%d y[999]=%d z[123]=%d\n", hy[0], hy[1], hy[499], hy[999], hz[123]);
    long long sum = 0;
    for (int i = 0; i < n; i++) sum += hy[i];
    printf("sum y = %lld\n", sum);
    float ms;
    printf("elapsed time of an event without timing: %s\n", cudaGetErrorName(cudaEventElapsedTime(&ms, produced, produced)));
    cudaGetLastError();
    cudaEventDestroy(produced);
    cudaStreamDestroy(a); cudaStreamDestroy(b); cudaStreamDestroy(c);
    cudaFree(x); cudaFree(y); cudaFree(z);
    return 0;
}
