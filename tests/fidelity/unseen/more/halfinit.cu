// Half a buffer is set by cudaMemset, the kernel reads it all; one buffer is never freed.
#include <cstdio>
#include <cuda_runtime.h>

__global__ void sumPairs(const int *a, int *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n / 2)
        out[i] = a[2 * i] + a[2 * i + 1];
}

int main(void)
{
    const int n = 256;
    int *a, *out, *spare, h[n / 2];
    cudaMalloc(&a, n * sizeof(int));
    cudaMalloc(&out, n / 2 * sizeof(int));
    cudaMalloc(&spare, 1024);
    cudaMemset(a, 0, n / 2 * sizeof(int));
    sumPairs<<<1, 128>>>(a, out, n);
    cudaMemcpy(h, out, sizeof(h), cudaMemcpyDeviceToHost);
    printf("out[0]=%d out[63]=%d\n", h[0], h[63]);
    cudaFree(a);
    cudaFree(out);
    return 0;
}
