#include <stdio.h>
#include <assert.h>
__global__ void scale(float *a, int n, int stride)
{
    int i = (blockIdx.x * blockDim.x + threadIdx.x) * stride;
    assert(i < n);
    a[i] *= 2.0f;
}
int main()
{
    float *d;
    cudaMalloc(&d, 100 * sizeof(float));
    scale<<<1, 64>>>(d, 100, 1);
    printf("first: %s\n", cudaGetErrorString(cudaDeviceSynchronize()));
    scale<<<1, 64>>>(d, 100, 2);
    cudaError_t e = cudaDeviceSynchronize();
    printf("second: %s (%d)\n", cudaGetErrorString(e), (int)e);
    printf("after: %s\n", cudaGetErrorString(cudaMemset(d, 0, 16)));
    return 0;
}
