// Two kinds of work chosen per thread: by the lane's parity (both paths in every warp: the
// warp runs them one after the other) or by the warp's parity (each warp takes one path).
#include <cstdio>
#include <cuda_runtime.h>
#define ITER 2048

__device__ float pathA(float x)
{
    for (int i = 0; i < ITER; i++) x = x * 1.0001f + 0.5f;
    return x;
}

__device__ float pathB(float x)
{
    for (int i = 0; i < ITER; i++) x = x * 0.9999f - 0.25f;
    return x;
}

__global__ void byLane(float *out)
{
    int t = blockIdx.x * blockDim.x + threadIdx.x;
    float x = t * 0.001f;
    out[t] = (threadIdx.x % 2 == 0) ? pathA(x) : pathB(x);
}

__global__ void byWarp(float *out)
{
    int t = blockIdx.x * blockDim.x + threadIdx.x;
    float x = t * 0.001f;
    out[t] = ((threadIdx.x / 32) % 2 == 0) ? pathA(x) : pathB(x);
}

int main(void)
{
    int n = 128;
    float *d, h[128];
    cudaMalloc(&d, n * sizeof(float));
    byLane<<<1, n>>>(d);
    cudaMemcpy(h, d, sizeof(h), cudaMemcpyDeviceToHost);
    printf("by lane: %.3f %.3f\n", h[0], h[n - 1]);
    byWarp<<<1, n>>>(d);
    cudaMemcpy(h, d, sizeof(h), cudaMemcpyDeviceToHost);
    printf("by warp: %.3f %.3f\n", h[0], h[n - 1]);
    return 0;
}
