// Held-out kernel block_sum_shared: the classic shared-memory tree reduction with sequential
// addressing (stride halved each step, a __syncthreads per step), one partial sum per block.
// One launch: grid 4, block 128.
#include <cstdio>

#define THREADS 128

__global__ void block_sum_shared(const int *in, int *partial) {
  __shared__ int sdata[THREADS];
  unsigned int tid = threadIdx.x;
  sdata[tid] = in[blockIdx.x * blockDim.x + tid];
  __syncthreads();
  for (unsigned int s = blockDim.x / 2; s > 0; s >>= 1) {
    if (tid < s) sdata[tid] += sdata[tid + s];
    __syncthreads();
  }
  if (tid == 0) partial[blockIdx.x] = sdata[0];
}

int main() {
  const int blocks = 4, n = blocks * THREADS;
  int h_in[n], h_part[blocks];
  for (int i = 0; i < n; i++) h_in[i] = (i % 13) - 4;
  int *d_in, *d_part;
  cudaMalloc(&d_in, n * sizeof(int));
  cudaMalloc(&d_part, blocks * sizeof(int));
  cudaMemcpy(d_in, h_in, n * sizeof(int), cudaMemcpyHostToDevice);
  block_sum_shared<<<blocks, THREADS>>>(d_in, d_part);
  cudaMemcpy(h_part, d_part, blocks * sizeof(int), cudaMemcpyDeviceToHost);
  bool ok = true;
  for (int b = 0; b < blocks; b++) {
    int s = 0;
    for (int t = 0; t < THREADS; t++) s += h_in[b * THREADS + t];
    if (s != h_part[b]) ok = false;
  }
  printf("block_sum_shared %s\n", ok ? "OK" : "FAIL");
  cudaFree(d_in);
  cudaFree(d_part);
  return ok ? 0 : 1;
}
