// The asyncAPI sample's shape: copy in, a kernel, copy out, all asynchronous on the
// default stream, with an event marking the end; the host polls the event (how many times
// differs from run to run, so only that it finished is printed) and checks the result.
// Kernel: a[i] += 26 for every i.
#include <cstdio>
#include <cuda_runtime.h>

__global__ void increment(int *a, int value) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    a[i] += value;
}

int main() {
    const int n = 4 * 1024, value = 26;
    int *a, *d;
    cudaMallocHost((void **)&a, n * sizeof(int));
    for (int i = 0; i < n; i++) a[i] = i;
    cudaMalloc((void **)&d, n * sizeof(int));
    cudaMemset(d, 255, n * sizeof(int));
    cudaEvent_t start, stop;
    cudaEventCreate(&start);
    cudaEventCreate(&stop);
    cudaEventRecord(start, 0);
    cudaMemcpyAsync(d, a, n * sizeof(int), cudaMemcpyHostToDevice, 0);
    increment<<<n / 512, 512, 0, 0>>>(d, value);
    cudaMemcpyAsync(a, d, n * sizeof(int), cudaMemcpyDeviceToHost, 0);
    cudaEventRecord(stop, 0);
    unsigned long counter = 0;
    while (cudaEventQuery(stop) == cudaErrorNotReady) counter++;
    printf("the event completed: %s\n", cudaGetErrorName(cudaEventQuery(stop)));
    float ms;
    cudaEventElapsedTime(&ms, start, stop);
    printf("elapsed time is non-negative: %s\n", ms >= 0 ? "yes" : "no");
    bool ok = true;
    for (int i = 0; i < n; i++)
        if (a[i] != i + value) { ok = false; break; }
    printf("n=%d a[0]=%d a[n-1]=%d %s\n", n, a[0], a[n - 1], ok ? "PASSED" : "FAILED");
    cudaEventDestroy(start);
    cudaEventDestroy(stop);
    cudaFreeHost(a);
    cudaFree(d);
    return 0;
}
