// C = A B for a 128 x 96 A and a 96 x 192 B (floats holding small integers, so every sum is
// exact) by the programming guide's shared-memory tiling, with 16 x 16 tiles and blocks
// (matmulTile16) or 32 x 32 (matmulTile32): a 32 x 32 tile halves the global loads per
// multiply-add and has a quarter of the blocks.
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

#define M 128
#define K 96
#define NC 192

template <int T>
__device__ __forceinline__ void tiled_product(const float *a, const float *b, float *c) {
  __shared__ float as[T][T], bs[T][T];
  int row = blockIdx.y * T + threadIdx.y, col = blockIdx.x * T + threadIdx.x;
  float sum = 0.0f;
  for (int t = 0; t < K / T; t++) {
    as[threadIdx.y][threadIdx.x] = a[row * K + t * T + threadIdx.x];
    bs[threadIdx.y][threadIdx.x] = b[(t * T + threadIdx.y) * NC + col];
    __syncthreads();
    for (int k = 0; k < T; k++) sum += as[threadIdx.y][k] * bs[k][threadIdx.x];
    __syncthreads();
  }
  c[row * NC + col] = sum;
}

__global__ void matmulTile16(const float *a, const float *b, float *c) { tiled_product<16>(a, b, c); }

__global__ void matmulTile32(const float *a, const float *b, float *c) { tiled_product<32>(a, b, c); }

static int mismatches(const float *a, const float *b, const float *c) {
  int bad = 0;
  for (int i = 0; i < M; i++)
    for (int j = 0; j < NC; j++) {
      float s = 0.0f;
      for (int k = 0; k < K; k++) s += a[i * K + k] * b[k * NC + j];
      bad += c[i * NC + j] != s;
    }
  return bad;
}

int main(void) {
  float *a = (float *)malloc(M * K * sizeof(float)), *b = (float *)malloc(K * NC * sizeof(float)),
        *c = (float *)malloc(M * NC * sizeof(float));
  for (int i = 0; i < M * K; i++) a[i] = (float)((i * 5) % 9 - 4);
  for (int i = 0; i < K * NC; i++) b[i] = (float)((i * 3) % 7 - 3);
  float *da, *db, *dc;
  cudaMalloc(&da, M * K * sizeof(float));
  cudaMalloc(&db, K * NC * sizeof(float));
  cudaMalloc(&dc, M * NC * sizeof(float));
  cudaMemcpy(da, a, M * K * sizeof(float), cudaMemcpyHostToDevice);
  cudaMemcpy(db, b, K * NC * sizeof(float), cudaMemcpyHostToDevice);
  matmulTile16<<<dim3(NC / 16, M / 16), dim3(16, 16)>>>(da, db, dc);
  cudaMemcpy(c, dc, M * NC * sizeof(float), cudaMemcpyDeviceToHost);
  printf("matmulTile16: %d mismatches, c[0] = %.1f\n", mismatches(a, b, c), c[0]);
  cudaMemset(dc, 0, M * NC * sizeof(float));
  matmulTile32<<<dim3(NC / 32, M / 32), dim3(32, 32)>>>(da, db, dc);
  cudaMemcpy(c, dc, M * NC * sizeof(float), cudaMemcpyDeviceToHost);
  printf("matmulTile32: %d mismatches, c[0] = %.1f\n", mismatches(a, b, c), c[0]);
  cudaFree(da);
  cudaFree(db);
  cudaFree(dc);
  free(a);
  free(b);
  free(c);
  return 0;
}
