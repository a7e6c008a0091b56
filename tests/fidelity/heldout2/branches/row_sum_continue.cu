// Held-out kernel row_sum_continue: per-row sums of a sparse-ish int matrix that skip entries
// with `continue` (course exercises on loop control): zeros are skipped, negative entries are
// skipped and counted, and a row stops at a sentinel 99 with `break`.  96 rows of 40.
// Launch: grid 1, block 96.
#include <cstdio>
#include <cstdlib>

#define COLS 40

__global__ void row_sum_continue(const int *m, int *sum, int *negatives, int rows) {
  int r = blockIdx.x * blockDim.x + threadIdx.x;
  if (r >= rows) return;
  int s = 0, neg = 0;
  for (int c = 0; c < COLS; c++) {
    int v = m[r * COLS + c];
    if (v == 0) continue;
    if (v == 99) break;
    if (v < 0) {
      neg++;
      continue;
    }
    s += v;
  }
  sum[r] = s;
  negatives[r] = neg;
}

int main() {
  const int rows = 96;
  int m[rows * COLS], s[rows], ng[rows];
  for (int i = 0; i < rows * COLS; i++) {
    int v = (i * 31 + 7) % 23 - 6;   // -6..16
    m[i] = (i % 97 == 40) ? 99 : v;
  }
  int *dm, *ds, *dn;
  cudaMalloc(&dm, sizeof(m));
  cudaMalloc(&ds, sizeof(s));
  cudaMalloc(&dn, sizeof(ng));
  cudaMemcpy(dm, m, sizeof(m), cudaMemcpyHostToDevice);
  row_sum_continue<<<1, rows>>>(dm, ds, dn, rows);
  cudaMemcpy(s, ds, sizeof(s), cudaMemcpyDeviceToHost);
  cudaMemcpy(ng, dn, sizeof(ng), cudaMemcpyDeviceToHost);
  int bad = 0;
  for (int r = 0; r < rows; r++) {
    int rs = 0, rn = 0;
    for (int c = 0; c < COLS; c++) {
      int v = m[r * COLS + c];
      if (v == 99) break;
      if (v < 0) rn++;
      else rs += v;
    }
    bad += (s[r] != rs) + (ng[r] != rn);
  }
  printf("row_sum_continue %s\n", bad == 0 ? "OK" : "FAIL");
  cudaFree(dm);
  cudaFree(ds);
  cudaFree(dn);
  return bad != 0;
}
