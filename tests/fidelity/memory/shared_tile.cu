// Memory fidelity: a 32x32 shared tile written by rows and read by columns: 31 bank conflicts
// per load request; padded to 33 columns: none.
#include <cstdio>
#include <cstdlib>

#define TILE 32

__global__ void tile_columns(const float *in, float *out) {
  __shared__ float tile[TILE][TILE];
  int x = threadIdx.x, y = threadIdx.y, base = blockIdx.x * TILE * TILE;
  tile[y][x] = in[base + y * TILE + x];
  __syncthreads();
  out[base + y * TILE + x] = tile[x][y];
}

__global__ void tile_columns_padded(const float *in, float *out) {
  __shared__ float tile[TILE][TILE + 1];
  int x = threadIdx.x, y = threadIdx.y, base = blockIdx.x * TILE * TILE;
  tile[y][x] = in[base + y * TILE + x];
  __syncthreads();
  out[base + y * TILE + x] = tile[x][y];
}

int main() {
  const int blocks = 2, n = blocks * TILE * TILE;
  float *h = (float *)malloc(n * sizeof(float)), *r = (float *)malloc(n * sizeof(float));
  for (int i = 0; i < n; i++) h[i] = (float)i;
  float *in, *out;
  cudaMalloc(&in, n * sizeof(float)); cudaMalloc(&out, n * sizeof(float));
  cudaMemcpy(in, h, n * sizeof(float), cudaMemcpyHostToDevice);
  dim3 block(TILE, TILE);
  int bad = 0;
  for (int padded = 0; padded < 2; padded++) {
    if (padded) tile_columns_padded<<<blocks, block>>>(in, out);
    else tile_columns<<<blocks, block>>>(in, out);
    cudaMemcpy(r, out, n * sizeof(float), cudaMemcpyDeviceToHost);
    for (int b = 0; b < blocks; b++)
      for (int y = 0; y < TILE; y++)
        for (int x = 0; x < TILE; x++) bad += r[b * TILE * TILE + y * TILE + x] != h[b * TILE * TILE + x * TILE + y];
  }
  printf("shared_tile %s\n", bad ? "FAIL" : "OK");
  return 0;
}
