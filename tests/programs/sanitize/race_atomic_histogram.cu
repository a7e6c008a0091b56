// A shared-memory histogram: zeroed, barrier, atomicAdd by every thread, barrier,
// then copied out; the block totals go to global memory with atomicAdd.  No hazard.
// expect-pascal: racecheck errors=0 warnings=0
// expect-volta: racecheck errors=0 warnings=0
#include <cstdio>
__global__ void histogram(const int *in, int *bins) {
  __shared__ int local[4];
  int t = threadIdx.x;
  if (t < 4) local[t] = 0;
  __syncthreads();
  atomicAdd(&local[in[blockIdx.x * blockDim.x + t] % 4], 1);
  __syncthreads();
  if (t < 4) atomicAdd(&bins[t], local[t]);
}
int main() {
  int h[128], *din, *bins, out[4];
  for (int i = 0; i < 128; i++) h[i] = i;
  cudaMalloc(&din, sizeof h);
  cudaMalloc(&bins, sizeof out);
  cudaMemcpy(din, h, sizeof h, cudaMemcpyHostToDevice);
  cudaMemset(bins, 0, sizeof out);
  histogram<<<2, 64>>>(din, bins);
  cudaMemcpy(out, bins, sizeof out, cudaMemcpyDeviceToHost);
  printf("%d %d %d %d\n", out[0], out[1], out[2], out[3]);
  return 0;
}
