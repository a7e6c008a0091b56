#include <stdio.h>
extern __shared__ float s[];
__global__ void k(float *o) { s[threadIdx.x] = threadIdx.x; __syncthreads(); o[threadIdx.x] = s[31 - threadIdx.x]; }
int main() { float *d; cudaMalloc(&d, 128); k<<<1, 32, 128>>>(d); float h[32]; cudaMemcpy(h, d, 128, cudaMemcpyDeviceToHost); printf("%f %s\n", h[0], cudaGetErrorString(cudaGetLastError())); }
