#include <stdlib.h>
#include <stdio.h>
extern __shared__ int sdata[];
__global__ void reduce(const int *in, int *out)
{
    unsigned int tid = threadIdx.x;
    unsigned int i = blockIdx.x * blockDim.x + threadIdx.x;
    sdata[tid] = in[i];
    __syncthreads();
    for (unsigned int s = blockDim.x / 2; s > 0; s >>= 1) {
        if (tid < s) sdata[tid] += sdata[tid + s];
        __syncthreads();
    }
    if (tid == 0) out[blockIdx.x] = sdata[0];
}
int main()
{
    const int n = 1 << 14, threads = 256, blocks = n / threads;
    int *h = (int *)malloc(n * sizeof(int));
    for (int i = 0; i < n; i++) h[i] = i % 7;
    int *din, *dout, hout[64];
    cudaMalloc(&din, n * sizeof(int)); cudaMalloc(&dout, blocks * sizeof(int));
    cudaMemcpy(din, h, n * sizeof(int), cudaMemcpyHostToDevice);
    reduce<<<blocks, threads, threads * sizeof(int)>>>(din, dout);
    cudaMemcpy(hout, dout, sizeof hout, cudaMemcpyDeviceToHost);
    long total = 0; for (int b = 0; b < blocks; b++) total += hout[b];
    printf("total %ld: %s\n", total, cudaGetErrorString(cudaGetLastError()));
    reduce<<<blocks, threads, 64 * 1024>>>(din, dout);
    printf("64 KB: %s\n", cudaGetErrorString(cudaGetLastError()));
    cudaFuncSetAttribute(reduce, cudaFuncAttributeMaxDynamicSharedMemorySize, 64 * 1024);
    reduce<<<blocks, threads, 64 * 1024>>>(din, dout);
    printf("64 KB opted in: %s\n", cudaGetErrorString(cudaGetLastError()));
    cudaDeviceSynchronize();
    free(h);
    return 0;
}
