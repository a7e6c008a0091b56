// Timing: C = A * B for n x n matrices (argv[1], default 256) with shared tiles of 8x8 and 16x16.
#include "common.h"

template <int T>
__global__ void matmul_tiled(const float *a, const float *b, float *c, int n) {
  __shared__ float as[T][T], bs[T][T];
  int row = blockIdx.y * T + threadIdx.y, col = blockIdx.x * T + threadIdx.x;
  float sum = 0.0f;
  for (int t = 0; t < n; t += T) {
    as[threadIdx.y][threadIdx.x] = a[row * n + t + threadIdx.x];
    bs[threadIdx.y][threadIdx.x] = b[(t + threadIdx.y) * n + col];
    __syncthreads();
    for (int k = 0; k < T; k++) sum += as[threadIdx.y][k] * bs[k][threadIdx.x];
    __syncthreads();
  }
  c[row * n + col] = sum;
}

int main(int argc, char **argv) {
  int n = argc > 1 ? atoi(argv[1]) : 256, bad = 0;
  float *a = device_array((size_t)n * n, 1.0f / 1024), *b = device_array((size_t)n * n, 0.0f);
  float *c = device_array((size_t)n * n, 0.0f);
  matmul_tiled<8><<<dim3(n / 8, n / 8), dim3(8, 8)>>>(a, b, c, n);
  bad += host_at(c, 9) != 0.0f;
  matmul_tiled<16><<<dim3(n / 16, n / 16), dim3(16, 16)>>>(a, b, c, n);
  bad += host_at(c, 9) != 0.0f;
  printf("matmul_tiled %s\n", bad ? "FAIL" : "OK");
  return 0;
}
