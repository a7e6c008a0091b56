// Timing: a naive transpose of an n x n matrix (argv[1], default 1024), 16x16 blocks:
// reading rows and writing columns, then reading columns and writing rows.
#include "common.h"

__global__ void transpose_write_cols(const float *in, float *out, int n) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x < n && y < n) out[x * n + y] = in[y * n + x];
}

__global__ void transpose_write_rows(const float *in, float *out, int n) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x < n && y < n) out[y * n + x] = in[x * n + y];
}

int main(int argc, char **argv) {
  int n = argc > 1 ? atoi(argv[1]) : 1024;
  float *in = device_array((size_t)n * n, 1.0f), *out = device_array((size_t)n * n, 0.0f);
  dim3 block(16, 16), grid((n + 15) / 16, (n + 15) / 16);
  transpose_write_cols<<<grid, block>>>(in, out, n);
  int bad = host_at(out, (size_t)3 * n + 5) != (float)((5 * n + 3) % 1024);
  transpose_write_rows<<<grid, block>>>(in, out, n);
  bad += host_at(out, (size_t)3 * n + 5) != (float)((5 * n + 3) % 1024);
  printf("transpose_naive %s\n", bad ? "FAIL" : "OK");
  return 0;
}
