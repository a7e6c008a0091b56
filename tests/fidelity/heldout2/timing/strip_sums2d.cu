// Column and row sums of a 512 x 512 int matrix by a 2D grid (chapter 4 of "Professional CUDA C
// Programming" on coalescing): blockIdx.y splits the matrix into 8 strips of 64; each thread
// sums its column's (colStripSums) or its row's (rowStripSums) part of a strip and adds it to
// the total with atomicAdd.  A warp of colStripSums reads 32 adjacent ints per step (4 sectors);
// one of rowStripSums reads 32 ints a row (2 KB) apart (32 sectors).
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

#define N 512
#define STRIPS 8

__global__ void colStripSums(const int *m, int *sums) {
  int col = blockIdx.x * blockDim.x + threadIdx.x;
  int strip = N / gridDim.y, r0 = blockIdx.y * strip;
  int s = 0;
  for (int r = r0; r < r0 + strip; r++) s += m[r * N + col];
  atomicAdd(&sums[col], s);
}

__global__ void rowStripSums(const int *m, int *sums) {
  int row = blockIdx.x * blockDim.x + threadIdx.x;
  int strip = N / gridDim.y, c0 = blockIdx.y * strip;
  int s = 0;
  for (int c = c0; c < c0 + strip; c++) s += m[row * N + c];
  atomicAdd(&sums[row], s);
}

int main(void) {
  int *h = (int *)malloc(N * N * sizeof(int)), got[N], col[N] = {0}, row[N] = {0};
  for (int i = 0; i < N * N; i++) {
    h[i] = (i * 7 + i / N) % 19 - 9;
    col[i % N] += h[i];
    row[i / N] += h[i];
  }
  int *dm, *ds;
  cudaMalloc(&dm, N * N * sizeof(int));
  cudaMalloc(&ds, N * sizeof(int));
  cudaMemcpy(dm, h, N * N * sizeof(int), cudaMemcpyHostToDevice);
  dim3 block(64), grid(N / 64, STRIPS);
  cudaMemset(ds, 0, N * sizeof(int));
  colStripSums<<<grid, block>>>(dm, ds);
  cudaMemcpy(got, ds, N * sizeof(int), cudaMemcpyDeviceToHost);
  int bad = 0;
  for (int i = 0; i < N; i++) bad += got[i] != col[i];
  printf("colStripSums: %d mismatches\n", bad);
  cudaMemset(ds, 0, N * sizeof(int));
  rowStripSums<<<grid, block>>>(dm, ds);
  cudaMemcpy(got, ds, N * sizeof(int), cudaMemcpyDeviceToHost);
  bad = 0;
  for (int i = 0; i < N; i++) bad += got[i] != row[i];
  printf("rowStripSums: %d mismatches\n", bad);
  cudaFree(dm);
  cudaFree(ds);
  free(h);
  return 0;
}
