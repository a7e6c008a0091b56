// Held-out kernel matvec_row: y = A x with one thread per row (course exercises' first
// matrix-vector product): a bounds check on the row, then a loop over the columns whose trip
// count is a kernel argument.  A 200 x 37 int matrix.
// Launch: grid 7, block 32 (the last block partly idle).
#include <cstdio>
#include <cstdlib>

__global__ void matvec_row(const int *a, const int *x, int *y, int rows, int cols) {
  int r = blockIdx.x * blockDim.x + threadIdx.x;
  if (r < rows) {
    int sum = 0;
    for (int c = 0; c < cols; c++) sum += a[r * cols + c] * x[c];
    y[r] = sum;
  }
}

int main() {
  const int rows = 200, cols = 37;
  int *a = (int *)malloc(rows * cols * sizeof(int)), x[cols], *y = (int *)malloc(rows * sizeof(int));
  for (int i = 0; i < rows * cols; i++) a[i] = (i * 17) % 13 - 6;
  for (int c = 0; c < cols; c++) x[c] = c % 5 + 1;
  int *da, *dx, *dy;
  cudaMalloc(&da, rows * cols * sizeof(int));
  cudaMalloc(&dx, cols * sizeof(int));
  cudaMalloc(&dy, rows * sizeof(int));
  cudaMemcpy(da, a, rows * cols * sizeof(int), cudaMemcpyHostToDevice);
  cudaMemcpy(dx, x, cols * sizeof(int), cudaMemcpyHostToDevice);
  matvec_row<<<(rows + 31) / 32, 32>>>(da, dx, dy, rows, cols);
  cudaMemcpy(y, dy, rows * sizeof(int), cudaMemcpyDeviceToHost);
  int bad = 0;
  for (int r = 0; r < rows; r++) {
    int s = 0;
    for (int c = 0; c < cols; c++) s += a[r * cols + c] * x[c];
    bad += y[r] != s;
  }
  printf("matvec_row %s\n", bad == 0 ? "OK" : "FAIL");
  cudaFree(da);
  cudaFree(dx);
  cudaFree(dy);
  free(a);
  free(y);
  return bad != 0;
}
