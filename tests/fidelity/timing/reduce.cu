// Timing: a block sum of n ints (argv[1], default 1 << 20), 512 threads a block, in global
// memory in place: neighbored pairs (divergent: tid % (2 * stride)) and interleaved pairs.
#include "common.h"

__global__ void reduce_neighbored(int *g, int *out, int n) {
  unsigned tid = threadIdx.x, i = blockIdx.x * blockDim.x + threadIdx.x;
  int *data = g + blockIdx.x * blockDim.x;
  if (i >= n) return;
  for (int stride = 1; stride < blockDim.x; stride *= 2) {
    if (tid % (2 * stride) == 0) data[tid] += data[tid + stride];
    __syncthreads();
  }
  if (tid == 0) out[blockIdx.x] = data[0];
}

__global__ void reduce_interleaved(int *g, int *out, int n) {
  unsigned tid = threadIdx.x, i = blockIdx.x * blockDim.x + threadIdx.x;
  int *data = g + blockIdx.x * blockDim.x;
  if (i >= n) return;
  for (int stride = blockDim.x / 2; stride > 0; stride >>= 1) {
    if (tid < stride) data[tid] += data[tid + stride];
    __syncthreads();
  }
  if (tid == 0) out[blockIdx.x] = data[0];
}

int main(int argc, char **argv) {
  int n = argc > 1 ? atoi(argv[1]) : 1 << 20, blocks = n / 512, bad = 0;
  int *h = (int *)malloc(n * sizeof(int)), *g, *out, r;
  for (int i = 0; i < n; i++) h[i] = 1;
  cudaMalloc(&g, n * sizeof(int)); cudaMalloc(&out, blocks * sizeof(int));
  cudaMemcpy(g, h, n * sizeof(int), cudaMemcpyHostToDevice);
  reduce_neighbored<<<blocks, 512>>>(g, out, n);
  cudaMemcpy(&r, out, sizeof(int), cudaMemcpyDeviceToHost);
  bad += r != 512;
  cudaMemcpy(g, h, n * sizeof(int), cudaMemcpyHostToDevice);
  reduce_interleaved<<<blocks, 512>>>(g, out, n);
  cudaMemcpy(&r, out, sizeof(int), cudaMemcpyDeviceToHost);
  bad += r != 512;
  printf("reduce %s\n", bad ? "FAIL" : "OK");
  return 0;
}
