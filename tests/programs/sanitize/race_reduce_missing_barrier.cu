// A tree reduction whose loop lacks its barrier: each step reads what another warp
// (then another lane) wrote in the step before.
// expect-pascal: racecheck errors=1 warnings=0
// expect-volta: racecheck errors=1 warnings=1
#include <cstdio>
__global__ void reduce(const int *in, int *out) {
  __shared__ int s[128];
  int t = threadIdx.x;
  s[t] = in[t];
  __syncthreads();
  for (int d = blockDim.x / 2; d > 0; d /= 2) {
    if (t < d) s[t] += s[t + d];
  }
  if (t == 0) *out = s[0];
}
int main() {
  int h[128], *din, *dout, sum;
  for (int i = 0; i < 128; i++) h[i] = 1;
  cudaMalloc(&din, sizeof h);
  cudaMalloc(&dout, sizeof(int));
  cudaMemcpy(din, h, sizeof h, cudaMemcpyHostToDevice);
  reduce<<<1, 128>>>(din, dout);
  cudaMemcpy(&sum, dout, sizeof(int), cudaMemcpyDeviceToHost);
  printf("sum = %d\n", sum);
  return 0;
}
