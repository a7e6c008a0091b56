// The StreamPriorities sample's shape: the device's priority range, a stream of the
// highest and one of the lowest priority (a value outside the range is clamped into it),
// work on both, and the priorities read back.
// Kernel: out[i] = in[i] + tag on each stream.
#include <cstdio>
#include <cuda_runtime.h>

__global__ void tagged(const int *in, int *out, int tag, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = in[i] + tag;
}

int main() {
    int least, greatest;
    cudaDeviceGetStreamPriorityRange(&least, &greatest);
    printf("priority range: least %d, greatest %d\n", least, greatest);
    cudaStream_t high, low, clamped;
    cudaStreamCreateWithPriority(&high, cudaStreamNonBlocking, greatest);
    cudaStreamCreateWithPriority(&low, cudaStreamNonBlocking, least);
    cudaStreamCreateWithPriority(&clamped, cudaStreamDefault, greatest - 10);
    int p;
    cudaStreamGetPriority(high, &p); printf("high: %d\n", p);
    cudaStreamGetPriority(low, &p); printf("low: %d\n", p);
    cudaStreamGetPriority(clamped, &p); printf("clamped to greatest: %s\n", p == greatest ? "yes" : "no");
    unsigned int flags;
    cudaStreamGetFlags(high, &flags); printf("high stream flags: %u\n", flags);
    cudaStreamGetFlags(clamped, &flags); printf("clamped stream flags: %u\n", flags);
    const int n = 4096;
    int *in, *a, *b;
    cudaMallocManaged(&in, n * sizeof(int));
    cudaMallocManaged(&a, n * sizeof(int));
    cudaMallocManaged(&b, n * sizeof(int));
    for (int i = 0; i < n; i++) in[i] = i;
    tagged<<<n / 128, 128, 0, low>>>(in, a, 1000, n);
    tagged<<<n / 128, 128, 0, high>>>(in, b, 2000, n);
    cudaStreamSynchronize(low);
    cudaStreamSynchronize(high);
    printf("a[5]=%d b[5]=%d a[n-1]=%d b[n-1]=%d\n", a[5], b[5], a[n - 1], b[n - 1]);
    cudaStreamDestroy(high);
    cudaStreamDestroy(low);
    cudaStreamDestroy(clamped);
    cudaFree(in); cudaFree(a); cudaFree(b);
    return 0;
}
