// Memory fidelity: the shared-memory transpose of a 64x64 matrix through a 32x32 tile, unpadded
// (the column read of the tile conflicts 32 ways) and padded to 33 columns.
#include <cstdio>
#include <cstdlib>

#define TILE 32

__global__ void transpose_smem(const float *in, float *out, int nx, int ny) {
  __shared__ float tile[TILE][TILE];
  int x = blockIdx.x * TILE + threadIdx.x, y = blockIdx.y * TILE + threadIdx.y;
  tile[threadIdx.y][threadIdx.x] = in[y * nx + x];
  __syncthreads();
  int tx = blockIdx.y * TILE + threadIdx.x, ty = blockIdx.x * TILE + threadIdx.y;
  out[ty * ny + tx] = tile[threadIdx.x][threadIdx.y];
}

__global__ void transpose_smem_padded(const float *in, float *out, int nx, int ny) {
  __shared__ float tile[TILE][TILE + 1];
  int x = blockIdx.x * TILE + threadIdx.x, y = blockIdx.y * TILE + threadIdx.y;
  tile[threadIdx.y][threadIdx.x] = in[y * nx + x];
  __syncthreads();
  int tx = blockIdx.y * TILE + threadIdx.x, ty = blockIdx.x * TILE + threadIdx.y;
  out[ty * ny + tx] = tile[threadIdx.x][threadIdx.y];
}

int main() {
  const int nx = 64, ny = 64, n = nx * ny;
  float *h = (float *)malloc(n * sizeof(float)), *r = (float *)malloc(n * sizeof(float));
  for (int i = 0; i < n; i++) h[i] = (float)i;
  float *in, *out;
  cudaMalloc(&in, n * sizeof(float)); cudaMalloc(&out, n * sizeof(float));
  cudaMemcpy(in, h, n * sizeof(float), cudaMemcpyHostToDevice);
  dim3 block(TILE, TILE), grid(nx / TILE, ny / TILE);
  int bad = 0;
  for (int padded = 0; padded < 2; padded++) {
    if (padded) transpose_smem_padded<<<grid, block>>>(in, out, nx, ny);
    else transpose_smem<<<grid, block>>>(in, out, nx, ny);
    cudaMemcpy(r, out, n * sizeof(float), cudaMemcpyDeviceToHost);
    for (int y = 0; y < ny; y++) for (int x = 0; x < nx; x++) bad += r[x * ny + y] != h[y * nx + x];
  }
  printf("transpose_shared %s\n", bad ? "FAIL" : "OK");
  return 0;
}
