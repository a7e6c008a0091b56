// Held-out kernel horner_poly: each thread evaluates a degree-6 polynomial by Horner's rule,
// a loop of constant trip count over coefficients in constant memory (integer arithmetic, so
// the host's result is exact).  One launch: grid 2, block 128.
#include <cstdio>

#define DEGREE 6
__constant__ int coef[DEGREE + 1];

__global__ void horner_poly(const int *x, int *y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  int xi = x[i];
  int acc = coef[DEGREE];
  for (int k = DEGREE - 1; k >= 0; k--) acc = acc * xi + coef[k];
  y[i] = acc;
}

int main() {
  const int n = 250;
  int h_coef[DEGREE + 1] = {3, -1, 4, 1, -5, 9, 2};
  int hx[256], hy[256];
  for (int i = 0; i < n; i++) hx[i] = i % 9 - 4;
  cudaMemcpyToSymbol(coef, h_coef, sizeof(h_coef));
  int *dx, *dy;
  cudaMalloc(&dx, n * sizeof(int));
  cudaMalloc(&dy, n * sizeof(int));
  cudaMemcpy(dx, hx, n * sizeof(int), cudaMemcpyHostToDevice);
  horner_poly<<<2, 128>>>(dx, dy, n);
  cudaMemcpy(hy, dy, n * sizeof(int), cudaMemcpyDeviceToHost);
  int bad = 0;
  for (int i = 0; i < n; i++) {
    int acc = h_coef[DEGREE];
    for (int k = DEGREE - 1; k >= 0; k--) acc = acc * hx[i] + h_coef[k];
    if (acc != hy[i]) bad++;
  }
  if (bad) printf("horner_poly FAIL (%d)\n", bad);
  else printf("horner_poly OK\n");
  cudaFree(dx);
  cudaFree(dy);
  return bad ? 1 : 0;
}
