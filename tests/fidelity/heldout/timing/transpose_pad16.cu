// Matrix transpose through a shared-memory tile of 16 x 16 floats (chapter 5 of "Professional
// CUDA C Programming"), unpadded and padded by one column.  A warp of a 16 x 16 block covers
// two tile rows; reading the tile by columns, its lanes hit words 16 apart, 8 to a bank;
// with 17 columns every lane has a bank of its own.  A 256 x 512 matrix (height x width).
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

#define TILE 16
#define W 512
#define H 256

__global__ void transposeTile(const float *in, float *out, int width, int height) {
  __shared__ float tile[TILE][TILE];
  int x = blockIdx.x * TILE + threadIdx.x;
  int y = blockIdx.y * TILE + threadIdx.y;
  if (x < width && y < height) tile[threadIdx.y][threadIdx.x] = in[y * width + x];
  __syncthreads();
  x = blockIdx.y * TILE + threadIdx.x;
  y = blockIdx.x * TILE + threadIdx.y;
  if (x < height && y < width) out[y * height + x] = tile[threadIdx.x][threadIdx.y];
}

__global__ void transposeTilePadded(const float *in, float *out, int width, int height) {
  __shared__ float tile[TILE][TILE + 1];
  int x = blockIdx.x * TILE + threadIdx.x;
  int y = blockIdx.y * TILE + threadIdx.y;
  if (x < width && y < height) tile[threadIdx.y][threadIdx.x] = in[y * width + x];
  __syncthreads();
  x = blockIdx.y * TILE + threadIdx.x;
  y = blockIdx.x * TILE + threadIdx.y;
  if (x < height && y < width) out[y * height + x] = tile[threadIdx.x][threadIdx.y];
}

static const char *verify(const float *in, const float *out) {
  for (int y = 0; y < H; y++)
    for (int x = 0; x < W; x++)
      if (out[x * H + y] != in[y * W + x]) return "FAIL";
  return "OK";
}

int main(void) {
  size_t bytes = (size_t)W * H * sizeof(float);
  float *h_in = (float *)malloc(bytes), *h_out = (float *)malloc(bytes);
  for (int i = 0; i < W * H; i++) h_in[i] = (float)(i % 1000);
  float *d_in, *d_out;
  cudaMalloc(&d_in, bytes);
  cudaMalloc(&d_out, bytes);
  cudaMemcpy(d_in, h_in, bytes, cudaMemcpyHostToDevice);
  dim3 block(TILE, TILE), grid(W / TILE, H / TILE);
  transposeTile<<<grid, block>>>(d_in, d_out, W, H);
  cudaMemcpy(h_out, d_out, bytes, cudaMemcpyDeviceToHost);
  printf("transposeTile: %s\n", verify(h_in, h_out));
  cudaMemset(d_out, 0, bytes);
  transposeTilePadded<<<grid, block>>>(d_in, d_out, W, H);
  cudaMemcpy(h_out, d_out, bytes, cudaMemcpyDeviceToHost);
  printf("transposeTilePadded: %s\n", verify(h_in, h_out));
  cudaFree(d_in);
  cudaFree(d_out);
  free(h_in);
  free(h_out);
  return 0;
}
