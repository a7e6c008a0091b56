// Held-out kernel hist_shared_atomic: a 16-bin histogram privatised in shared memory ("CUDA by
// Example" chapter 9, the programming guide's shared atomics): the block clears its bins with a
// strided loop, each thread adds its values' bins with atomicAdd on shared memory (values
// outside 0..15 are skipped), then the block's bins go to global memory with atomicAdd.
// Launch: grid 4, block 96; n = 1000.
#include <cstdio>
#include <cstdlib>

#define BINS 16

__global__ void hist_shared_atomic(const int *data, int n, unsigned int *hist) {
  __shared__ unsigned int local[BINS];
  for (int b = threadIdx.x; b < BINS; b += blockDim.x) local[b] = 0;
  __syncthreads();
  int stride = blockDim.x * gridDim.x;
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride) {
    int v = data[i];
    if (v >= 0 && v < BINS) atomicAdd(&local[v], 1u);
  }
  __syncthreads();
  if (threadIdx.x < BINS && local[threadIdx.x] != 0) atomicAdd(&hist[threadIdx.x], local[threadIdx.x]);
}

int main() {
  const int n = 1000;
  int *h = (int *)malloc(n * sizeof(int));
  unsigned int ref[BINS] = {0}, got[BINS];
  for (int i = 0; i < n; i++) {
    h[i] = (i * 7919 + 13) % 19 - 1;   // -1..17: some out of range
    if (h[i] >= 0 && h[i] < BINS) ref[h[i]]++;
  }
  int *d;
  unsigned int *dh;
  cudaMalloc(&d, n * sizeof(int));
  cudaMalloc(&dh, BINS * sizeof(unsigned int));
  cudaMemcpy(d, h, n * sizeof(int), cudaMemcpyHostToDevice);
  cudaMemset(dh, 0, BINS * sizeof(unsigned int));
  hist_shared_atomic<<<4, 96>>>(d, n, dh);
  cudaMemcpy(got, dh, BINS * sizeof(unsigned int), cudaMemcpyDeviceToHost);
  int bad = 0;
  for (int b = 0; b < BINS; b++) bad += got[b] != ref[b];
  printf("hist_shared_atomic %s\n", bad == 0 ? "OK" : "FAIL");
  cudaFree(d);
  cudaFree(dh);
  free(h);
  return bad != 0;
}
