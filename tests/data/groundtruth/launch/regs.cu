#include <stdio.h>
extern __shared__ float dyn[];
__global__ void kd(float *p) { if (p) p[0] = 1; }
__global__ void __launch_bounds__(64) kb(float *p) { if (p) p[0] = 1; }
void hostfn(void) {}
#define N 160
__global__ void kr(const float *in, float *out) {
  float v[N];
#pragma unroll
  for (int i = 0; i < N; i++) v[i] = in[i * 1024 + threadIdx.x];
  float a = 0;
#pragma unroll
  for (int j = 0; j < 8; j++)
#pragma unroll
    for (int i = 0; i < N; i++) a = a * v[i] + v[(i * 7 + j) % N];
  out[threadIdx.x] = a;
}
void R(const char *w, cudaError_t r) { cudaError_t l = cudaGetLastError();
  printf("%-14s ret=%s last=%s sync=%s\n", w, cudaGetErrorName(r), cudaGetErrorName(l), cudaGetErrorName(cudaDeviceSynchronize())); }
#define S(w, f, a, v) R(w, cudaFuncSetAttribute((const void *)f, a, v))
int main() {
  float *d; cudaMalloc(&d, 1 << 24);
  S("set -1", kd, cudaFuncAttributeMaxDynamicSharedMemorySize, -1);
  S("carve 50", kd, cudaFuncAttributePreferredSharedMemoryCarveout, 50);
  S("carve 101", kd, cudaFuncAttributePreferredSharedMemoryCarveout, 101);
  S("carve -1", kd, cudaFuncAttributePreferredSharedMemoryCarveout, -1);
  S("carve -2", kd, cudaFuncAttributePreferredSharedMemoryCarveout, -2);
  kb<<<-1, 65>>>(d); R("kb65 grid-1", cudaSuccess);
  cudaFuncAttributes a; cudaFuncGetAttributes(&a, kr);
  printf("kr regs=%d maxthreads=%d\n", a.numRegs, a.maxThreadsPerBlock);
  for (int t = 1024; t >= 128; t /= 2) { kr<<<1, t>>>(d, d + (1 << 20)); printf("%d: ", t); R("kr", cudaSuccess); }
  kr<<<1, 385>>>(d, d + (1 << 20)); R("kr 385", cudaSuccess);
  kr<<<1, 384>>>(d, d + (1 << 20)); R("kr 384", cudaSuccess);
}
