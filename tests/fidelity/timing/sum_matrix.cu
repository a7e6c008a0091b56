// Timing: sumMatrix of two n x n matrices (argv[1], default 1024) with blocks of
// 8x8, 16x16, 32x32 and 32x16 threads (the book's achieved-occupancy lesson).
#include "common.h"

__global__ void sumMatrix(const float *a, const float *b, float *c, int nx, int ny) {
  int ix = blockIdx.x * blockDim.x + threadIdx.x;
  int iy = blockIdx.y * blockDim.y + threadIdx.y;
  if (ix < nx && iy < ny) {
    int i = iy * nx + ix;
    c[i] = a[i] + b[i];
  }
}

int main(int argc, char **argv) {
  int n = argc > 1 ? atoi(argv[1]) : 1024;
  float *a = device_array((size_t)n * n, 1.0f), *b = device_array((size_t)n * n, 2.0f);
  float *c = device_array((size_t)n * n, 0.0f);
  int shapes[4][2] = {{8, 8}, {16, 16}, {32, 32}, {32, 16}}, bad = 0;
  for (int s = 0; s < 4; s++) {
    dim3 block(shapes[s][0], shapes[s][1]);
    dim3 grid((n + block.x - 1) / block.x, (n + block.y - 1) / block.y);
    sumMatrix<<<grid, block>>>(a, b, c, n, n);
    bad += host_at(c, 77) != 3.0f * 77;
  }
  printf("sum_matrix %s\n", bad ? "FAIL" : "OK");
  return 0;
}
