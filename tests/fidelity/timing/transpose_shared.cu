// Timing: a transpose through a 32x32 shared tile (blocks of 32x8 threads, 4 rows each),
// the tile unpadded (columns read with 32-way bank conflicts) and padded to 33 columns.
#include "common.h"
#define TILE 32
#define ROWS 8

template <int PAD>
__global__ void transpose_tile(const float *in, float *out, int n) {
  __shared__ float tile[TILE][TILE + PAD];
  int x = blockIdx.x * TILE + threadIdx.x;
  int y = blockIdx.y * TILE + threadIdx.y;
  for (int j = 0; j < TILE; j += ROWS) tile[threadIdx.y + j][threadIdx.x] = in[(y + j) * n + x];
  __syncthreads();
  x = blockIdx.y * TILE + threadIdx.x;
  y = blockIdx.x * TILE + threadIdx.y;
  for (int j = 0; j < TILE; j += ROWS) out[(y + j) * n + x] = tile[threadIdx.x][threadIdx.y + j];
}

int main(int argc, char **argv) {
  int n = argc > 1 ? atoi(argv[1]) : 1024;
  float *in = device_array((size_t)n * n, 1.0f), *out = device_array((size_t)n * n, 0.0f);
  dim3 block(TILE, ROWS), grid(n / TILE, n / TILE);
  transpose_tile<0><<<grid, block>>>(in, out, n);
  int bad = host_at(out, (size_t)3 * n + 5) != (float)((5 * n + 3) % 1024);
  transpose_tile<1><<<grid, block>>>(in, out, n);
  bad += host_at(out, (size_t)3 * n + 5) != (float)((5 * n + 3) % 1024);
  printf("transpose_shared %s\n", bad ? "FAIL" : "OK");
  return 0;
}
