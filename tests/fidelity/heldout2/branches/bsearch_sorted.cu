// Held-out kernel bsearch_sorted: a binary search per thread (the lower bound of each query in a
// sorted array, as in course exercises on merge paths): a while loop halving [lo, hi) whose
// trip count and branch outcomes depend on the query.  500 sorted keys, 450 queries.
// Launch: grid 3, block 160 (the last block partly idle).
#include <cstdio>
#include <cstdlib>

__global__ void bsearch_sorted(const int *keys, int n, const int *queries, int m, int *pos) {
  int q = blockIdx.x * blockDim.x + threadIdx.x;
  if (q >= m) return;
  int target = queries[q];
  int lo = 0, hi = n;
  while (lo < hi) {
    int mid = (lo + hi) / 2;
    if (keys[mid] < target)
      lo = mid + 1;
    else
      hi = mid;
  }
  pos[q] = lo;
}

int main() {
  const int n = 500, m = 450;
  int keys[n], queries[m], got[m];
  for (int i = 0; i < n; i++) keys[i] = 3 * i + (i % 3);
  for (int j = 0; j < m; j++) queries[j] = (j * 211) % 1600 - 50;
  int *dk, *dq, *dp;
  cudaMalloc(&dk, sizeof(keys));
  cudaMalloc(&dq, sizeof(queries));
  cudaMalloc(&dp, sizeof(got));
  cudaMemcpy(dk, keys, sizeof(keys), cudaMemcpyHostToDevice);
  cudaMemcpy(dq, queries, sizeof(queries), cudaMemcpyHostToDevice);
  bsearch_sorted<<<3, 160>>>(dk, n, dq, m, dp);
  cudaMemcpy(got, dp, sizeof(got), cudaMemcpyDeviceToHost);
  int bad = 0;
  for (int j = 0; j < m; j++) {
    int p = 0;
    while (p < n && keys[p] < queries[j]) p++;
    bad += got[j] != p;
  }
  printf("bsearch_sorted %s\n", bad == 0 ? "OK" : "FAIL");
  cudaFree(dk);
  cudaFree(dq);
  cudaFree(dp);
  return bad != 0;
}
