// Held-out kernel clip_range_minmax: min, max and abs from the math API on ints and floats
// (the magnitude of a difference clipped to a range, and a float clamp with fminf/fmaxf and
// fabsf), checked exactly against the host.  One launch: grid 2, block 128.
#include <cstdio>
#include <cmath>

__global__ void clip_range_minmax(const int *a, const int *b, const float *f, int *d, float *g) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int diff = abs(a[i] - b[i]);
  d[i] = max(3, min(diff, 40));
  g[i] = fminf(fmaxf(fabsf(f[i]), 0.25f), 2.5f);
}

int main() {
  const int n = 256;
  int ha[n], hb[n], hd[n];
  float hf[n], hg[n];
  for (int i = 0; i < n; i++) {
    ha[i] = (i * 31) % 97;
    hb[i] = (i * 17) % 89;
    hf[i] = ((i * 7) % 50 - 25) * 0.125f;
  }
  int *da, *db, *dd;
  float *df, *dg;
  cudaMalloc(&da, sizeof(ha));
  cudaMalloc(&db, sizeof(hb));
  cudaMalloc(&dd, sizeof(hd));
  cudaMalloc(&df, sizeof(hf));
  cudaMalloc(&dg, sizeof(hg));
  cudaMemcpy(da, ha, sizeof(ha), cudaMemcpyHostToDevice);
  cudaMemcpy(db, hb, sizeof(hb), cudaMemcpyHostToDevice);
  cudaMemcpy(df, hf, sizeof(hf), cudaMemcpyHostToDevice);
  clip_range_minmax<<<2, 128>>>(da, db, df, dd, dg);
  cudaMemcpy(hd, dd, sizeof(hd), cudaMemcpyDeviceToHost);
  cudaMemcpy(hg, dg, sizeof(hg), cudaMemcpyDeviceToHost);
  int bad = 0;
  for (int i = 0; i < n; i++) {
    int diff = ha[i] > hb[i] ? ha[i] - hb[i] : hb[i] - ha[i];
    int want = diff < 3 ? 3 : (diff > 40 ? 40 : diff);
    float m = hf[i] < 0 ? -hf[i] : hf[i];
    float wg = m < 0.25f ? 0.25f : (m > 2.5f ? 2.5f : m);
    if (hd[i] != want || hg[i] != wg) bad++;
  }
  printf("clip_range_minmax %s\n", bad ? "FAIL" : "OK");
  cudaFree(da); cudaFree(db); cudaFree(dd); cudaFree(df); cudaFree(dg);
  return bad ? 1 : 0;
}
