// y = a*x + y on 262,144 ints by a grid-stride loop over a fixed grid of 64 blocks of 256
// threads (the "CUDA Pro Tip: grid-stride loops" post): one element per iteration
// (axpyGridStride) or four, a grid's stride apart, per iteration with a remainder loop
// (axpyGridStrideUnroll4: chapter 3 of "Professional CUDA C Programming" on unrolling, four
// independent loads in flight per thread).
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

#define N (1 << 18)

__global__ void axpyGridStride(int a, const int *x, int *y, int n) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) y[i] = a * x[i] + y[i];
}

__global__ void axpyGridStrideUnroll4(int a, const int *x, int *y, int n) {
  int stride = blockDim.x * gridDim.x;
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  for (; i + 3 * stride < n; i += 4 * stride) {
    int x0 = x[i], x1 = x[i + stride], x2 = x[i + 2 * stride], x3 = x[i + 3 * stride];
    int y0 = y[i], y1 = y[i + stride], y2 = y[i + 2 * stride], y3 = y[i + 3 * stride];
    y[i] = a * x0 + y0;
    y[i + stride] = a * x1 + y1;
    y[i + 2 * stride] = a * x2 + y2;
    y[i + 3 * stride] = a * x3 + y3;
  }
  for (; i < n; i += stride) y[i] = a * x[i] + y[i];
}

int main(void) {
  int *hx = (int *)malloc(N * sizeof(int)), *hy = (int *)malloc(N * sizeof(int)), *got = (int *)malloc(N * sizeof(int));
  for (int i = 0; i < N; i++) {
    hx[i] = i % 1000;
    hy[i] = i % 7;
  }
  int *dx, *dy;
  cudaMalloc(&dx, N * sizeof(int));
  cudaMalloc(&dy, N * sizeof(int));
  cudaMemcpy(dx, hx, N * sizeof(int), cudaMemcpyHostToDevice);
  cudaMemcpy(dy, hy, N * sizeof(int), cudaMemcpyHostToDevice);
  axpyGridStride<<<64, 256>>>(3, dx, dy, N);
  cudaMemcpy(got, dy, N * sizeof(int), cudaMemcpyDeviceToHost);
  int bad = 0;
  for (int i = 0; i < N; i++) bad += got[i] != 3 * hx[i] + hy[i];
  printf("axpyGridStride: %d mismatches\n", bad);
  cudaMemcpy(dy, hy, N * sizeof(int), cudaMemcpyHostToDevice);
  axpyGridStrideUnroll4<<<64, 256>>>(3, dx, dy, N);
  cudaMemcpy(got, dy, N * sizeof(int), cudaMemcpyDeviceToHost);
  bad = 0;
  for (int i = 0; i < N; i++) bad += got[i] != 3 * hx[i] + hy[i];
  printf("axpyGridStrideUnroll4: %d mismatches\n", bad);
  cudaFree(dx);
  cudaFree(dy);
  free(hx);
  free(hy);
  free(got);
  return 0;
}
