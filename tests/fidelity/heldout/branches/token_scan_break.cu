// Held-out kernel token_scan_break: each thread walks its own record of 24 ints, skipping
// zeros with continue and stopping at the terminator -1 with break (a string-processing
// exercise: sum of the fields before the end mark).  One launch: grid 2, block 64.
#include <cstdio>

#define LEN 24

__global__ void token_scan_break(const int *records, int *sums, int *counts) {
  int r = blockIdx.x * blockDim.x + threadIdx.x;
  const int *rec = records + r * LEN;
  int sum = 0, count = 0;
  for (int k = 0; k < LEN; k++) {
    int v = rec[k];
    if (v == 0) continue;
    if (v < 0) break;
    sum += v;
    count++;
  }
  sums[r] = sum;
  counts[r] = count;
}

int main() {
  const int nrec = 128;
  static int h_rec[nrec * LEN];
  int h_sum[nrec], h_cnt[nrec];
  for (int r = 0; r < nrec; r++)
    for (int k = 0; k < LEN; k++) {
      int v = (r * 3 + k * 5) % 7;
      if (k == 4 + (r * 11) % 23) v = -1;
      h_rec[r * LEN + k] = v;
    }
  int *d_rec, *d_sum, *d_cnt;
  cudaMalloc(&d_rec, sizeof(h_rec));
  cudaMalloc(&d_sum, sizeof(h_sum));
  cudaMalloc(&d_cnt, sizeof(h_cnt));
  cudaMemcpy(d_rec, h_rec, sizeof(h_rec), cudaMemcpyHostToDevice);
  token_scan_break<<<2, 64>>>(d_rec, d_sum, d_cnt);
  cudaMemcpy(h_sum, d_sum, sizeof(h_sum), cudaMemcpyDeviceToHost);
  cudaMemcpy(h_cnt, d_cnt, sizeof(h_cnt), cudaMemcpyDeviceToHost);
  int bad = 0;
  for (int r = 0; r < nrec; r++) {
    int s = 0, c = 0;
    for (int k = 0; k < LEN; k++) {
      int v = h_rec[r * LEN + k];
      if (v == 0) continue;
      if (v < 0) break;
      s += v;
      c++;
    }
    if (s != h_sum[r] || c != h_cnt[r]) bad++;
  }
  printf(bad ? "token_scan_break FAIL\n" : "token_scan_break OK\n");
  cudaFree(d_rec); cudaFree(d_sum); cudaFree(d_cnt);
  return bad ? 1 : 0;
}
