// The CUDA C++ programming guide's shared-memory matrix multiplication (section "Shared
// Memory": a Matrix struct with a stride, GetElement / SetElement / GetSubMatrix __device__
// functions, BLOCK_SIZE 16), as a whole program: C = A B for 320 x 256 by 256 x 192 matrices
// of small integers held in floats (every sum exact), timed over 5 launches with CUDA events,
// checked against the host, the elapsed time and GFlop/s printed as the CUDA samples do.
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

#define BLOCK_SIZE 16

typedef struct {
  int width;
  int height;
  int stride;
  float *elements;
} Matrix;

__device__ float GetElement(const Matrix A, int row, int col) { return A.elements[row * A.stride + col]; }

__device__ void SetElement(Matrix A, int row, int col, float value) { A.elements[row * A.stride + col] = value; }

__device__ Matrix GetSubMatrix(Matrix A, int row, int col) {
  Matrix Asub;
  Asub.width = BLOCK_SIZE;
  Asub.height = BLOCK_SIZE;
  Asub.stride = A.stride;
  Asub.elements = &A.elements[A.stride * BLOCK_SIZE * row + BLOCK_SIZE * col];
  return Asub;
}

__global__ void MatMulKernel(Matrix A, Matrix B, Matrix C) {
  int blockRow = blockIdx.y;
  int blockCol = blockIdx.x;
  Matrix Csub = GetSubMatrix(C, blockRow, blockCol);
  float Cvalue = 0;
  int row = threadIdx.y;
  int col = threadIdx.x;
  for (int m = 0; m < (A.width / BLOCK_SIZE); ++m) {
    Matrix Asub = GetSubMatrix(A, blockRow, m);
    Matrix Bsub = GetSubMatrix(B, m, blockCol);
    __shared__ float As[BLOCK_SIZE][BLOCK_SIZE];
    __shared__ float Bs[BLOCK_SIZE][BLOCK_SIZE];
    As[row][col] = GetElement(Asub, row, col);
    Bs[row][col] = GetElement(Bsub, row, col);
    __syncthreads();
    for (int e = 0; e < BLOCK_SIZE; ++e) Cvalue += As[row][e] * Bs[e][col];
    __syncthreads();
  }
  SetElement(Csub, row, col, Cvalue);
}

static Matrix device_copy(const Matrix h, bool copy) {
  Matrix d = h;
  size_t size = (size_t)h.width * h.height * sizeof(float);
  cudaMalloc(&d.elements, size);
  if (copy) cudaMemcpy(d.elements, h.elements, size, cudaMemcpyHostToDevice);
  return d;
}

int main(void) {
  const int iterations = 5;
  Matrix A = {256, 320, 256, NULL}, B = {192, 256, 192, NULL}, C = {192, 320, 192, NULL};
  A.elements = (float *)malloc(A.width * A.height * sizeof(float));
  B.elements = (float *)malloc(B.width * B.height * sizeof(float));
  C.elements = (float *)malloc(C.width * C.height * sizeof(float));
  for (int i = 0; i < A.width * A.height; i++) A.elements[i] = (float)(i % 7 - 3);
  for (int i = 0; i < B.width * B.height; i++) B.elements[i] = (float)((i / 3) % 5 - 2);
  printf("MatrixA(%d,%d), MatrixB(%d,%d)\n", A.width, A.height, B.width, B.height);
  Matrix d_A = device_copy(A, true), d_B = device_copy(B, true), d_C = device_copy(C, false);

  dim3 dimBlock(BLOCK_SIZE, BLOCK_SIZE);
  dim3 dimGrid(B.width / dimBlock.x, A.height / dimBlock.y);
  MatMulKernel<<<dimGrid, dimBlock>>>(d_A, d_B, d_C);   // warm-up
  cudaDeviceSynchronize();
  cudaEvent_t start, stop;
  cudaEventCreate(&start);
  cudaEventCreate(&stop);
  cudaEventRecord(start, NULL);
  for (int j = 0; j < iterations; j++) MatMulKernel<<<dimGrid, dimBlock>>>(d_A, d_B, d_C);
  cudaEventRecord(stop, NULL);
  cudaEventSynchronize(stop);
  float msecTotal = 0.0f;
  cudaEventElapsedTime(&msecTotal, start, stop);
  float msecPerMatrixMul = msecTotal / iterations;
  double flopsPerMatrixMul = 2.0 * (double)A.width * (double)A.height * (double)B.width;
  double gigaFlops = (flopsPerMatrixMul * 1.0e-9f) / (msecPerMatrixMul / 1000.0f);
  printf("Performance= %.2f GFlop/s, Time= %.3f msec, Size= %.0f Ops, WorkgroupSize= %u threads/block\n", gigaFlops,
         msecPerMatrixMul, flopsPerMatrixMul, dimBlock.x * dimBlock.y);

  cudaMemcpy(C.elements, d_C.elements, C.width * C.height * sizeof(float), cudaMemcpyDeviceToHost);
  int errors = 0;
  double checksum = 0;
  for (int i = 0; i < C.height; i++)
    for (int j = 0; j < C.width; j++) {
      float s = 0;
      for (int k = 0; k < A.width; k++) s += A.elements[i * A.width + k] * B.elements[k * B.width + j];
      if (C.elements[i * C.width + j] != s) errors++;
      checksum += C.elements[i * C.width + j];
    }
  printf("C[0][0] = %.1f, C[%d][%d] = %.1f, checksum %.1f\n", C.elements[0], C.height - 1, C.width - 1,
         C.elements[C.width * C.height - 1], checksum);
  printf("Checking computed result for correctness: %s\n", errors == 0 ? "Result = PASS" : "Result = FAIL");
  cudaEventDestroy(start);
  cudaEventDestroy(stop);
  cudaFree(d_A.elements);
  cudaFree(d_B.elements);
  cudaFree(d_C.elements);
  free(A.elements);
  free(B.elements);
  free(C.elements);
  return errors != 0;
}
