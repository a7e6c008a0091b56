// Shared-memory tree reductions, steps 1 and 2 of the well-known "Optimizing Parallel
// Reduction in CUDA" talk: reduceStrided halves the number of active threads with
// interleaved addressing (thread t adds s[2*stride*t + stride] into s[2*stride*t], so a
// warp's shared accesses are 2, 4, 8 ... words apart: bank conflicts), reduceSequential with
// sequential addressing (thread t adds s[t + stride], no conflicts).  65,536 ints, 256 per block.
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

#define N (1 << 16)
#define BLOCK 256

__global__ void reduceStrided(const int *g_in, int *g_out) {
  __shared__ int s[BLOCK];
  unsigned int tid = threadIdx.x;
  s[tid] = g_in[blockIdx.x * blockDim.x + tid];
  __syncthreads();
  for (unsigned int stride = 1; stride < blockDim.x; stride *= 2) {
    unsigned int index = 2 * stride * tid;
    if (index < blockDim.x) s[index] += s[index + stride];
    __syncthreads();
  }
  if (tid == 0) g_out[blockIdx.x] = s[0];
}

__global__ void reduceSequential(const int *g_in, int *g_out) {
  __shared__ int s[BLOCK];
  unsigned int tid = threadIdx.x;
  s[tid] = g_in[blockIdx.x * blockDim.x + tid];
  __syncthreads();
  for (unsigned int stride = blockDim.x / 2; stride > 0; stride >>= 1) {
    if (tid < stride) s[tid] += s[tid + stride];
    __syncthreads();
  }
  if (tid == 0) g_out[blockIdx.x] = s[0];
}

int main(void) {
  const int blocks = N / BLOCK;
  int *h_in = (int *)malloc(N * sizeof(int)), *h_out = (int *)malloc(blocks * sizeof(int));
  long long expect = 0;
  for (int i = 0; i < N; i++) {
    h_in[i] = (i * 7) % 11 - 3;
    expect += h_in[i];
  }
  int *d_in, *d_out;
  cudaMalloc(&d_in, N * sizeof(int));
  cudaMalloc(&d_out, blocks * sizeof(int));
  cudaMemcpy(d_in, h_in, N * sizeof(int), cudaMemcpyHostToDevice);

  reduceStrided<<<blocks, BLOCK>>>(d_in, d_out);
  cudaMemcpy(h_out, d_out, blocks * sizeof(int), cudaMemcpyDeviceToHost);
  long long sum = 0;
  for (int b = 0; b < blocks; b++) sum += h_out[b];
  printf("reduceStrided: %lld %s\n", sum, sum == expect ? "OK" : "FAIL");

  reduceSequential<<<blocks, BLOCK>>>(d_in, d_out);
  cudaMemcpy(h_out, d_out, blocks * sizeof(int), cudaMemcpyDeviceToHost);
  sum = 0;
  for (int b = 0; b < blocks; b++) sum += h_out[b];
  printf("reduceSequential: %lld %s\n", sum, sum == expect ? "OK" : "FAIL");

  cudaFree(d_in);
  cudaFree(d_out);
  free(h_in);
  free(h_out);
  return 0;
}
