// Held-out kernel band_filter_logic: short-circuit conditions, a value kept when it lies in
// one of two bands or is flagged, and counted as an outlier when both neighbours agree it is
// (&& and || mixed, with a neighbour read guarded by the left operand).
// One launch: grid 2, block 128.
#include <cstdio>

__global__ void band_filter_logic(const int *v, const int *flag, int *keep, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int x = v[i];
  int k = 0;
  if ((x >= 10 && x < 20) || (x >= 40 && x < 50) || flag[i] != 0) k = 1;
  if (i > 0 && i < n - 1 && v[i - 1] > x + 5 && v[i + 1] > x + 5) k += 2;
  keep[i] = k;
}

int main() {
  const int n = 256;
  int hv[n], hf[n], hk[n];
  for (int i = 0; i < n; i++) {
    hv[i] = (i * 37) % 61;
    hf[i] = i % 23 == 0;
  }
  int *dv, *df, *dk;
  cudaMalloc(&dv, sizeof(hv));
  cudaMalloc(&df, sizeof(hf));
  cudaMalloc(&dk, sizeof(hk));
  cudaMemcpy(dv, hv, sizeof(hv), cudaMemcpyHostToDevice);
  cudaMemcpy(df, hf, sizeof(hf), cudaMemcpyHostToDevice);
  band_filter_logic<<<2, 128>>>(dv, df, dk, n);
  cudaMemcpy(hk, dk, sizeof(hk), cudaMemcpyDeviceToHost);
  int bad = 0;
  for (int i = 0; i < n; i++) {
    int x = hv[i], k = 0;
    if ((x >= 10 && x < 20) || (x >= 40 && x < 50) || hf[i] != 0) k = 1;
    if (i > 0 && i < n - 1 && hv[i - 1] > x + 5 && hv[i + 1] > x + 5) k += 2;
    bad += hk[i] != k;
  }
  printf("band_filter_logic %s\n", bad == 0 ? "OK" : "FAIL");
  cudaFree(dv); cudaFree(df); cudaFree(dk);
  return bad != 0;
}
