// Transpose of a 256 x 256 matrix of doubles through a 32 x 32 shared tile with 32 x 8 blocks
// (the "Efficient Matrix Transpose" post's coalesced transpose, each thread moving 4 elements),
// unpadded (transposeDouble) or padded to 33 columns (transposeDoublePadded).  A double takes
// two banks: reading the unpadded tile by columns, a warp's lanes are 64 words apart, all in
// banks 0-1; with 33 columns, 66 words apart, every lane two banks of its own.
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

#define TILE 32
#define ROWS 8
#define N 256

__global__ void transposeDouble(const double *in, double *out) {
  __shared__ double tile[TILE][TILE];
  int x = blockIdx.x * TILE + threadIdx.x, y = blockIdx.y * TILE + threadIdx.y;
  for (int j = 0; j < TILE; j += ROWS) tile[threadIdx.y + j][threadIdx.x] = in[(y + j) * N + x];
  __syncthreads();
  x = blockIdx.y * TILE + threadIdx.x;
  y = blockIdx.x * TILE + threadIdx.y;
  for (int j = 0; j < TILE; j += ROWS) out[(y + j) * N + x] = tile[threadIdx.x][threadIdx.y + j];
}

__global__ void transposeDoublePadded(const double *in, double *out) {
  __shared__ double tile[TILE][TILE + 1];
  int x = blockIdx.x * TILE + threadIdx.x, y = blockIdx.y * TILE + threadIdx.y;
  for (int j = 0; j < TILE; j += ROWS) tile[threadIdx.y + j][threadIdx.x] = in[(y + j) * N + x];
  __syncthreads();
  x = blockIdx.y * TILE + threadIdx.x;
  y = blockIdx.x * TILE + threadIdx.y;
  for (int j = 0; j < TILE; j += ROWS) out[(y + j) * N + x] = tile[threadIdx.x][threadIdx.y + j];
}

static int mismatches(const double *in, const double *out) {
  int bad = 0;
  for (int y = 0; y < N; y++)
    for (int x = 0; x < N; x++) bad += out[x * N + y] != in[y * N + x];
  return bad;
}

int main(void) {
  size_t bytes = (size_t)N * N * sizeof(double);
  double *h_in = (double *)malloc(bytes), *h_out = (double *)malloc(bytes);
  for (int i = 0; i < N * N; i++) h_in[i] = i * 0.5;
  double *d_in, *d_out;
  cudaMalloc(&d_in, bytes);
  cudaMalloc(&d_out, bytes);
  cudaMemcpy(d_in, h_in, bytes, cudaMemcpyHostToDevice);
  dim3 block(TILE, ROWS), grid(N / TILE, N / TILE);
  transposeDouble<<<grid, block>>>(d_in, d_out);
  cudaMemcpy(h_out, d_out, bytes, cudaMemcpyDeviceToHost);
  printf("transposeDouble: %d mismatches\n", mismatches(h_in, h_out));
  cudaMemset(d_out, 0, bytes);
  transposeDoublePadded<<<grid, block>>>(d_in, d_out);
  cudaMemcpy(h_out, d_out, bytes, cudaMemcpyDeviceToHost);
  printf("transposeDoublePadded: %d mismatches\n", mismatches(h_in, h_out));
  cudaFree(d_in);
  cudaFree(d_out);
  free(h_in);
  free(h_out);
  return 0;
}
