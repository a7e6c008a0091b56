// A device-to-device copy of 262,144 floats, one float per thread (copyScalar: LDG.E and
// STG.E, 4 sectors a request) against one float4 per thread (copyVec4: LDG.E.128, 16 sectors
// a request and a quarter of the requests), as in NVIDIA's "CUDA Pro Tip: Increase
// Performance with Vectorized Memory Access".
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

#define N (1 << 18)

__global__ void copyScalar(const float *src, float *dst, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) dst[i] = src[i];
}

__global__ void copyVec4(const float4 *src, float4 *dst, int n4) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n4) dst[i] = src[i];
}

int main(void) {
  float *h = (float *)malloc(N * sizeof(float)), *back = (float *)malloc(N * sizeof(float));
  for (int i = 0; i < N; i++) h[i] = (float)(i % 4096) * 0.25f;
  float *d_src, *d_dst;
  cudaMalloc(&d_src, N * sizeof(float));
  cudaMalloc(&d_dst, N * sizeof(float));
  cudaMemcpy(d_src, h, N * sizeof(float), cudaMemcpyHostToDevice);
  int threads = 256;
  copyScalar<<<(N + threads - 1) / threads, threads>>>(d_src, d_dst, N);
  cudaMemcpy(back, d_dst, N * sizeof(float), cudaMemcpyDeviceToHost);
  int bad = 0;
  for (int i = 0; i < N; i++) bad += back[i] != h[i];
  printf("copyScalar: %d mismatches\n", bad);
  cudaMemset(d_dst, 0, N * sizeof(float));
  copyVec4<<<(N / 4 + threads - 1) / threads, threads>>>((const float4 *)d_src, (float4 *)d_dst, N / 4);
  cudaMemcpy(back, d_dst, N * sizeof(float), cudaMemcpyDeviceToHost);
  bad = 0;
  for (int i = 0; i < N; i++) bad += back[i] != h[i];
  printf("copyVec4: %d mismatches\n", bad);
  cudaFree(d_src);
  cudaFree(d_dst);
  free(h);
  free(back);
  return 0;
}
