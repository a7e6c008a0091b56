// Held-out kernel vote_counter_atomic: ballots counted with atomics, atomicAdd on the chosen
// candidate's counter, atomicMax for the highest ballot weight and atomicMin for the first
// invalid ballot's index (a histogram exercise with global atomics).
// One launch: grid 2, block 128.
#include <cstdio>

#define CANDIDATES 5

__global__ void vote_counter_atomic(const int *ballot, const int *weight, int *tally, int *stats, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    int c = ballot[i];
    if (c >= 0 && c < CANDIDATES) {
      atomicAdd(&tally[c], weight[i]);
      atomicMax(&stats[0], weight[i]);
    } else {
      atomicMin(&stats[1], i);
    }
  }
}

int main() {
  const int n = 240;
  int h_ballot[n], h_weight[n], h_tally[CANDIDATES] = {0}, h_stats[2] = {0, 1 << 30};
  for (int i = 0; i < n; i++) {
    h_ballot[i] = (i * 7 + i / 3) % 6;
    h_weight[i] = 1 + (i * 13) % 9;
  }
  int *d_ballot, *d_weight, *d_tally, *d_stats;
  cudaMalloc(&d_ballot, sizeof(h_ballot));
  cudaMalloc(&d_weight, sizeof(h_weight));
  cudaMalloc(&d_tally, sizeof(h_tally));
  cudaMalloc(&d_stats, sizeof(h_stats));
  cudaMemcpy(d_ballot, h_ballot, sizeof(h_ballot), cudaMemcpyHostToDevice);
  cudaMemcpy(d_weight, h_weight, sizeof(h_weight), cudaMemcpyHostToDevice);
  cudaMemcpy(d_tally, h_tally, sizeof(h_tally), cudaMemcpyHostToDevice);
  cudaMemcpy(d_stats, h_stats, sizeof(h_stats), cudaMemcpyHostToDevice);
  vote_counter_atomic<<<2, 128>>>(d_ballot, d_weight, d_tally, d_stats, n);
  cudaMemcpy(h_tally, d_tally, sizeof(h_tally), cudaMemcpyDeviceToHost);
  cudaMemcpy(h_stats, d_stats, sizeof(h_stats), cudaMemcpyDeviceToHost);
  int ref[CANDIDATES] = {0}, rmax = 0, rmin = 1 << 30;
  for (int i = 0; i < n; i++) {
    if (h_ballot[i] < CANDIDATES) {
      ref[h_ballot[i]] += h_weight[i];
      if (h_weight[i] > rmax) rmax = h_weight[i];
    } else if (i < rmin) {
      rmin = i;
    }
  }
  bool ok = h_stats[0] == rmax && h_stats[1] == rmin;
  for (int c = 0; c < CANDIDATES; c++) ok = ok && ref[c] == h_tally[c];
  printf("vote_counter_atomic %s\n", ok ? "OK" : "FAIL");
  cudaFree(d_ballot); cudaFree(d_weight); cudaFree(d_tally); cudaFree(d_stats);
  return !ok;
}
