// Matrix addition on a 2D grid of 2D blocks (chapter 2-4 of "Professional CUDA C
// Programming"): addByRows maps threadIdx.x to the column, so a warp reads 32 consecutive
// floats; addByCols maps it to the row (the matrix walked down its columns), so a warp's 32
// loads touch 32 different rows.  512 x 512 floats, blocks of 32 x 8.
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

#define NX 512
#define NY 512

__global__ void addByRows(const float *A, const float *B, float *C, int nx, int ny) {
  int ix = blockIdx.x * blockDim.x + threadIdx.x;
  int iy = blockIdx.y * blockDim.y + threadIdx.y;
  if (ix < nx && iy < ny) {
    int idx = iy * nx + ix;
    C[idx] = A[idx] + B[idx];
  }
}

__global__ void addByCols(const float *A, const float *B, float *C, int nx, int ny) {
  int iy = blockIdx.x * blockDim.x + threadIdx.x;
  int ix = blockIdx.y * blockDim.y + threadIdx.y;
  if (ix < nx && iy < ny) {
    int idx = iy * nx + ix;
    C[idx] = A[idx] + B[idx];
  }
}

static int check(const float *A, const float *B, const float *C) {
  for (int i = 0; i < NX * NY; i++)
    if (C[i] != A[i] + B[i]) return i;
  return -1;
}

int main(void) {
  size_t bytes = NX * NY * sizeof(float);
  float *hA = (float *)malloc(bytes), *hB = (float *)malloc(bytes), *hC = (float *)malloc(bytes);
  for (int i = 0; i < NX * NY; i++) {
    hA[i] = (float)(i % 100) * 0.5f;
    hB[i] = (float)(i % 37);
  }
  float *dA, *dB, *dC;
  cudaMalloc((void **)&dA, bytes);
  cudaMalloc((void **)&dB, bytes);
  cudaMalloc((void **)&dC, bytes);
  cudaMemcpy(dA, hA, bytes, cudaMemcpyHostToDevice);
  cudaMemcpy(dB, hB, bytes, cudaMemcpyHostToDevice);
  dim3 block(32, 8);
  dim3 grid((NX + block.x - 1) / block.x, (NY + block.y - 1) / block.y);
  addByRows<<<grid, block>>>(dA, dB, dC, NX, NY);
  cudaMemcpy(hC, dC, bytes, cudaMemcpyDeviceToHost);
  printf("addByRows: %s\n", check(hA, hB, hC) < 0 ? "OK" : "FAIL");
  cudaMemset(dC, 0, bytes);
  dim3 gridT((NY + block.x - 1) / block.x, (NX + block.y - 1) / block.y);
  addByCols<<<gridT, block>>>(dA, dB, dC, NX, NY);
  cudaMemcpy(hC, dC, bytes, cudaMemcpyDeviceToHost);
  printf("addByCols: %s\n", check(hA, hB, hC) < 0 ? "OK" : "FAIL");
  cudaFree(dA); cudaFree(dB); cudaFree(dC);
  free(hA); free(hB); free(hC);
  return 0;
}
