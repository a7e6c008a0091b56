// In-place global-memory reductions of chapter 3 of "Professional CUDA C Programming":
// reduceInterleaved (each block reduces its own 256 ints, halving the stride) against
// reduceUnrolling8 (each block first adds 8 blocks' worth of data, 8 loads in flight per
// thread, then reduces as reduceInterleaved does: an eighth of the blocks).  2^16 ints.
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

#define N (1 << 16)

__global__ void reduceInterleaved(int *g_idata, int *g_odata, unsigned int n) {
  unsigned int tid = threadIdx.x;
  unsigned int idx = blockIdx.x * blockDim.x + threadIdx.x;
  int *idata = g_idata + blockIdx.x * blockDim.x;
  if (idx >= n) return;
  for (int stride = blockDim.x / 2; stride > 0; stride >>= 1) {
    if (tid < stride) idata[tid] += idata[tid + stride];
    __syncthreads();
  }
  if (tid == 0) g_odata[blockIdx.x] = idata[0];
}

__global__ void reduceUnrolling8(int *g_idata, int *g_odata, unsigned int n) {
  unsigned int tid = threadIdx.x;
  unsigned int idx = blockIdx.x * blockDim.x * 8 + threadIdx.x;
  int *idata = g_idata + blockIdx.x * blockDim.x * 8;
  if (idx + 7 * blockDim.x < n) {
    int a1 = g_idata[idx];
    int a2 = g_idata[idx + blockDim.x];
    int a3 = g_idata[idx + 2 * blockDim.x];
    int a4 = g_idata[idx + 3 * blockDim.x];
    int b1 = g_idata[idx + 4 * blockDim.x];
    int b2 = g_idata[idx + 5 * blockDim.x];
    int b3 = g_idata[idx + 6 * blockDim.x];
    int b4 = g_idata[idx + 7 * blockDim.x];
    g_idata[idx] = a1 + a2 + a3 + a4 + b1 + b2 + b3 + b4;
  }
  __syncthreads();
  for (int stride = blockDim.x / 2; stride > 0; stride >>= 1) {
    if (tid < stride) idata[tid] += idata[tid + stride];
    __syncthreads();
  }
  if (tid == 0) g_odata[blockIdx.x] = idata[0];
}

int main(void) {
  int block = 256, grid = N / block;
  int *h = (int *)malloc(N * sizeof(int)), *partial = (int *)malloc(grid * sizeof(int));
  long long cpu = 0;
  for (int i = 0; i < N; i++) {
    h[i] = i & 0xF;
    cpu += h[i];
  }
  int *d_in, *d_out;
  cudaMalloc(&d_in, N * sizeof(int));
  cudaMalloc(&d_out, grid * sizeof(int));

  cudaMemcpy(d_in, h, N * sizeof(int), cudaMemcpyHostToDevice);
  reduceInterleaved<<<grid, block>>>(d_in, d_out, N);
  cudaMemcpy(partial, d_out, grid * sizeof(int), cudaMemcpyDeviceToHost);
  long long gpu = 0;
  for (int i = 0; i < grid; i++) gpu += partial[i];
  printf("reduceInterleaved <<<%d, %d>>>: %lld %s\n", grid, block, gpu, gpu == cpu ? "OK" : "FAIL");

  cudaMemcpy(d_in, h, N * sizeof(int), cudaMemcpyHostToDevice);
  reduceUnrolling8<<<grid / 8, block>>>(d_in, d_out, N);
  cudaMemcpy(partial, d_out, grid / 8 * sizeof(int), cudaMemcpyDeviceToHost);
  gpu = 0;
  for (int i = 0; i < grid / 8; i++) gpu += partial[i];
  printf("reduceUnrolling8 <<<%d, %d>>>: %lld %s\n", grid / 8, block, gpu, gpu == cpu ? "OK" : "FAIL");

  cudaFree(d_in);
  cudaFree(d_out);
  free(h);
  free(partial);
  return 0;
}
