// Block maxima of 131,072 floats by shared-memory trees of 512 threads (chapter 3 of
// "Professional CUDA C Programming" on warp divergence, with max for the sum): the neighbored
// pairs selected by `tid % (2 * s) == 0` (maxDivergent: every warp stays busy, most of its
// threads idle) or the same pairs given to the first threads by `index = 2 * s * tid`
// (maxCompact: whole warps drop out).
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

#define N (1 << 17)
#define BLOCK 512

__global__ void maxDivergent(const float *in, float *out) {
  __shared__ float s[BLOCK];
  unsigned int tid = threadIdx.x;
  s[tid] = in[blockIdx.x * blockDim.x + tid];
  __syncthreads();
  for (unsigned int stride = 1; stride < blockDim.x; stride *= 2) {
    if (tid % (2 * stride) == 0) s[tid] = fmaxf(s[tid], s[tid + stride]);
    __syncthreads();
  }
  if (tid == 0) out[blockIdx.x] = s[0];
}

__global__ void maxCompact(const float *in, float *out) {
  __shared__ float s[BLOCK];
  unsigned int tid = threadIdx.x;
  s[tid] = in[blockIdx.x * blockDim.x + tid];
  __syncthreads();
  for (unsigned int stride = 1; stride < blockDim.x; stride *= 2) {
    unsigned int index = 2 * stride * tid;
    if (index < blockDim.x) s[index] = fmaxf(s[index], s[index + stride]);
    __syncthreads();
  }
  if (tid == 0) out[blockIdx.x] = s[0];
}

int main(void) {
  const int blocks = N / BLOCK;
  float *h = (float *)malloc(N * sizeof(float)), got[blocks], ref[blocks];
  for (int i = 0; i < N; i++) h[i] = (float)((i * 7919) % 100003) * 0.25f - 5000.0f;
  for (int b = 0; b < blocks; b++) {
    ref[b] = h[b * BLOCK];
    for (int j = 1; j < BLOCK; j++)
      if (h[b * BLOCK + j] > ref[b]) ref[b] = h[b * BLOCK + j];
  }
  float *din, *dout;
  cudaMalloc(&din, N * sizeof(float));
  cudaMalloc(&dout, blocks * sizeof(float));
  cudaMemcpy(din, h, N * sizeof(float), cudaMemcpyHostToDevice);
  maxDivergent<<<blocks, BLOCK>>>(din, dout);
  cudaMemcpy(got, dout, sizeof(got), cudaMemcpyDeviceToHost);
  int bad = 0;
  for (int b = 0; b < blocks; b++) bad += got[b] != ref[b];
  printf("maxDivergent: %d wrong blocks, block 0 max %.2f\n", bad, got[0]);
  cudaMemset(dout, 0, blocks * sizeof(float));
  maxCompact<<<blocks, BLOCK>>>(din, dout);
  cudaMemcpy(got, dout, sizeof(got), cudaMemcpyDeviceToHost);
  bad = 0;
  for (int b = 0; b < blocks; b++) bad += got[b] != ref[b];
  printf("maxCompact: %d wrong blocks, block 0 max %.2f\n", bad, got[0]);
  cudaFree(din);
  cudaFree(dout);
  free(h);
  return 0;
}
