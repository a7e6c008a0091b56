// The tree reduction with a barrier in its loop, and its result read after the last
// one: no hazard.
// expect-pascal: racecheck errors=0 warnings=0
// expect-volta: racecheck errors=0 warnings=0
#include <cstdio>
__global__ void reduce(const int *in, int *out) {
  __shared__ int s[128];
  int t = threadIdx.x;
  s[t] = in[t + blockIdx.x * blockDim.x];
  __syncthreads();
  for (int d = blockDim.x / 2; d > 0; d /= 2) {
    if (t < d) s[t] += s[t + d];
    __syncthreads();
  }
  if (t == 0) out[blockIdx.x] = s[0];
}
int main() {
  int h[256], *din, *dout, sums[2];
  for (int i = 0; i < 256; i++) h[i] = 1;
  cudaMalloc(&din, sizeof h);
  cudaMalloc(&dout, sizeof sums);
  cudaMemcpy(din, h, sizeof h, cudaMemcpyHostToDevice);
  reduce<<<2, 128>>>(din, dout);
  cudaMemcpy(sums, dout, sizeof sums, cudaMemcpyDeviceToHost);
  printf("sums = %d %d\n", sums[0], sums[1]);
  return 0;
}
