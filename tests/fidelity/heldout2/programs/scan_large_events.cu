// An inclusive prefix sum of 100,000 ints in three launches (the scan-then-propagate scheme of
// "GPU Gems 3" chapter 39 and of course exercises), as a whole program with error checks:
// scanBlocks scans each 512-element block in shared memory (Hillis-Steele, two elements per
// thread) and writes the block's total, scanSums scans the 196 totals in one block, addOffsets
// adds each block's preceding total.  The three launches are timed together with CUDA events.
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

#define CHECK(call)                                                                     \
  do {                                                                                  \
    cudaError_t e = (call);                                                             \
    if (e != cudaSuccess) {                                                             \
      fprintf(stderr, "Error: %s:%d, %s\n", __FILE__, __LINE__, cudaGetErrorString(e)); \
      exit(1);                                                                          \
    }                                                                                   \
  } while (0)

#define B 512

__global__ void scanBlocks(const int *in, int *out, int *sums, int n) {
  __shared__ int s[B];
  int t = threadIdx.x, base = blockIdx.x * B;
  s[t] = base + t < n ? in[base + t] : 0;
  s[t + B / 2] = base + t + B / 2 < n ? in[base + t + B / 2] : 0;
  __syncthreads();
  for (int off = 1; off < B; off *= 2) {
    int a = t >= off ? s[t - off] : 0;
    int b = t + B / 2 >= off ? s[t + B / 2 - off] : 0;
    __syncthreads();
    s[t] += a;
    s[t + B / 2] += b;
    __syncthreads();
  }
  if (base + t < n) out[base + t] = s[t];
  if (base + t + B / 2 < n) out[base + t + B / 2] = s[t + B / 2];
  if (t == 0) sums[blockIdx.x] = s[B - 1];
}

__global__ void scanSums(int *sums, int count) {
  __shared__ int s[B];
  int t = threadIdx.x;
  s[t] = t < count ? sums[t] : 0;
  __syncthreads();
  for (int off = 1; off < blockDim.x; off *= 2) {
    int a = t >= off ? s[t - off] : 0;
    __syncthreads();
    s[t] += a;
    __syncthreads();
  }
  if (t < count) sums[t] = s[t];
}

__global__ void addOffsets(int *out, const int *sums, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n && blockIdx.x / 2 > 0) out[i] += sums[blockIdx.x / 2 - 1];
}

int main(void) {
  const int n = 100000, blocks = (n + B - 1) / B;
  int *h = (int *)malloc(n * sizeof(int)), *got = (int *)malloc(n * sizeof(int));
  for (int i = 0; i < n; i++) h[i] = (i % 13) - 6 + (i % 5 == 0);
  int *din, *dout, *dsums;
  CHECK(cudaMalloc(&din, n * sizeof(int)));
  CHECK(cudaMalloc(&dout, n * sizeof(int)));
  CHECK(cudaMalloc(&dsums, blocks * sizeof(int)));
  CHECK(cudaMemcpy(din, h, n * sizeof(int), cudaMemcpyHostToDevice));
  printf("scanning %d ints in %d blocks of %d\n", n, blocks, B);

  cudaEvent_t start, stop;
  CHECK(cudaEventCreate(&start));
  CHECK(cudaEventCreate(&stop));
  CHECK(cudaEventRecord(start));
  scanBlocks<<<blocks, B / 2>>>(din, dout, dsums, n);
  CHECK(cudaGetLastError());
  scanSums<<<1, B>>>(dsums, blocks);
  CHECK(cudaGetLastError());
  addOffsets<<<2 * blocks, B / 2>>>(dout, dsums, n);
  CHECK(cudaGetLastError());
  CHECK(cudaEventRecord(stop));
  CHECK(cudaEventSynchronize(stop));
  float ms = 0;
  CHECK(cudaEventElapsedTime(&ms, start, stop));
  CHECK(cudaMemcpy(got, dout, n * sizeof(int), cudaMemcpyDeviceToHost));

  int errors = 0, first = -1;
  long long run = 0;
  for (int i = 0; i < n; i++) {
    run += h[i];
    if (got[i] != run) {
      if (first < 0) first = i;
      errors++;
    }
  }
  printf("out[0] = %d, out[%d] = %d, out[%d] = %d\n", got[0], n / 2, got[n / 2], n - 1, got[n - 1]);
  if (errors) printf("FAILED: %d errors, first at %d\n", errors, first);
  else printf("Test PASSED\n");
  printf("3 kernels: %.3f ms\n", ms);
  CHECK(cudaEventDestroy(start));
  CHECK(cudaEventDestroy(stop));
  CHECK(cudaFree(din));
  CHECK(cudaFree(dout));
  CHECK(cudaFree(dsums));
  free(h);
  free(got);
  return errors != 0;
}
