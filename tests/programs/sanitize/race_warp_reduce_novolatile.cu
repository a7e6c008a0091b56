// The last warp of a shared-memory reduction sums without __syncwarp (and without
// volatile): in lockstep (stack model) its lanes are ordered; under ITS they race.
// expect-pascal: racecheck errors=0 warnings=0
// expect-volta: racecheck errors=0 warnings=10
#include <cstdio>
__global__ void reduce(const int *in, int *out) {
  __shared__ int s[64];
  int t = threadIdx.x;
  s[t] = in[t];
  __syncthreads();
  if (t < 32) {
    s[t] += s[t + 32];
    s[t] += s[t + 16];
    s[t] += s[t + 8];
    s[t] += s[t + 4];
    s[t] += s[t + 2];
    s[t] += s[t + 1];
  }
  if (t == 0) *out = s[0];
}
int main() {
  int h[64], *din, *dout, sum;
  for (int i = 0; i < 64; i++) h[i] = i;
  cudaMalloc(&din, sizeof h);
  cudaMalloc(&dout, sizeof(int));
  cudaMemcpy(din, h, sizeof h, cudaMemcpyHostToDevice);
  reduce<<<1, 64>>>(din, dout);
  cudaMemcpy(&sum, dout, sizeof(int), cudaMemcpyDeviceToHost);
  printf("sum = %d\n", sum);
  return 0;
}
