// Static shared memory declared in a device function counts to each kernel that calls it.
#include <stdio.h>
__device__ float f(int i) { __shared__ float a[SIZE_F]; a[i] = i; __syncthreads(); return a[i ^ 1]; }
__global__ void k(float *p) { __shared__ float b[SIZE_K]; b[threadIdx.x] = 1; __syncthreads(); p[threadIdx.x] = f(threadIdx.x) + b[threadIdx.x ^ 1]; }
__global__ void other(float *p) { __shared__ float c[SIZE_K]; c[threadIdx.x] = 1; __syncthreads(); p[threadIdx.x] = c[threadIdx.x ^ 1]; }
int main() { float *d; cudaMalloc(&d, 4096); k<<<1, 32>>>(d); float h[2]; cudaMemcpy(h, d, 8, cudaMemcpyDeviceToHost);
             printf("%s %g %g\n", cudaGetErrorString(cudaGetLastError()), h[0], h[1]); }
