// A block reduction whose barrier sits inside `if (tid < active)`: with 48 of 64 threads
// active, warp 1 splits at the barrier.
#include <cstdio>
#include <cuda_runtime.h>

__global__ void partialSum(const float *in, float *out, int active)
{
    __shared__ float s[64];
    int tid = threadIdx.x;
    s[tid] = in[tid];
    if (tid < active) {
        __syncthreads();
        if (tid < 16) s[tid] += s[tid + 16] + s[tid + 32];
    }
    if (tid == 0) {
        float t = 0;
        for (int i = 0; i < 16; i++) t += s[i];
        *out = t;
    }
}

int main(void)
{
    float h[64], *din, *dout, r = 0;
    for (int i = 0; i < 64; i++) h[i] = 1.0f;
    cudaMalloc(&din, sizeof(h));
    cudaMalloc(&dout, sizeof(float));
    cudaMemcpy(din, h, sizeof(h), cudaMemcpyHostToDevice);
    partialSum<<<1, 64>>>(din, dout, 64);
    cudaMemcpy(&r, dout, sizeof(float), cudaMemcpyDeviceToHost);
    printf("all active: %.1f\n", r);
    partialSum<<<1, 64>>>(din, dout, 48);
    cudaError_t e = cudaDeviceSynchronize();
    printf("48 active: %s\n", cudaGetErrorString(e));
    cudaFree(din);
    cudaFree(dout);
    return 0;
}
