// Held-out kernel csr_spmv_rows: the scalar CSR sparse matrix-vector product, one thread per
// row, a loop whose trip count is the row's number of nonzeros (0 to 9, read from the data),
// as in the sparse-matrix chapter of course notes.  One launch: grid 2, block 96, 160 rows.
#include <cstdio>
#include <cstdlib>

__global__ void csr_spmv_rows(const int *rowptr, const int *col, const int *val, const int *x, int *y, int rows) {
  int row = blockIdx.x * blockDim.x + threadIdx.x;
  if (row < rows) {
    int dot = 0;
    for (int k = rowptr[row]; k < rowptr[row + 1]; k++) dot += val[k] * x[col[k]];
    y[row] = dot;
  }
}

int main() {
  const int rows = 160, cols = 64;
  int *rowptr = (int *)malloc((rows + 1) * sizeof(int));
  rowptr[0] = 0;
  for (int r = 0; r < rows; r++) rowptr[r + 1] = rowptr[r] + (r * 7 + r / 5) % 10;
  int nnz = rowptr[rows];
  int *col = (int *)malloc(nnz * sizeof(int)), *val = (int *)malloc(nnz * sizeof(int));
  int *x = (int *)malloc(cols * sizeof(int)), *y = (int *)malloc(rows * sizeof(int));
  for (int k = 0; k < nnz; k++) {
    col[k] = (k * 17) % cols;
    val[k] = k % 5 - 2;
  }
  for (int c = 0; c < cols; c++) x[c] = c % 6 + 1;
  int *d_rowptr, *d_col, *d_val, *d_x, *d_y;
  cudaMalloc(&d_rowptr, (rows + 1) * sizeof(int));
  cudaMalloc(&d_col, nnz * sizeof(int));
  cudaMalloc(&d_val, nnz * sizeof(int));
  cudaMalloc(&d_x, cols * sizeof(int));
  cudaMalloc(&d_y, rows * sizeof(int));
  cudaMemcpy(d_rowptr, rowptr, (rows + 1) * sizeof(int), cudaMemcpyHostToDevice);
  cudaMemcpy(d_col, col, nnz * sizeof(int), cudaMemcpyHostToDevice);
  cudaMemcpy(d_val, val, nnz * sizeof(int), cudaMemcpyHostToDevice);
  cudaMemcpy(d_x, x, cols * sizeof(int), cudaMemcpyHostToDevice);
  csr_spmv_rows<<<2, 96>>>(d_rowptr, d_col, d_val, d_x, d_y, rows);
  cudaMemcpy(y, d_y, rows * sizeof(int), cudaMemcpyDeviceToHost);
  int bad = 0;
  for (int r = 0; r < rows; r++) {
    int dot = 0;
    for (int k = rowptr[r]; k < rowptr[r + 1]; k++) dot += val[k] * x[col[k]];
    if (dot != y[r]) bad++;
  }
  printf("csr_spmv_rows %s\n", bad ? "FAIL" : "OK");
  cudaFree(d_rowptr); cudaFree(d_col); cudaFree(d_val); cudaFree(d_x); cudaFree(d_y);
  free(rowptr); free(col); free(val); free(x); free(y);
  return bad != 0;
}
