// The last warp of a reduction done right for ITS: each step reads into a register,
// __syncwarp(), writes, __syncwarp().  No hazard under either model.
// expect-pascal: racecheck errors=0 warnings=0
// expect-volta: racecheck errors=0 warnings=0
#include <cstdio>
__global__ void reduce(const int *in, int *out) {
  __shared__ int s[64];
  int t = threadIdx.x;
  s[t] = in[t];
  __syncthreads();
  if (t < 32) {
    int v = s[t] + s[t + 32];
    __syncwarp();
    s[t] = v;
    __syncwarp();
    for (int d = 16; d > 0; d /= 2) {
      v += s[t + d];
      __syncwarp();
      s[t] = v;
      __syncwarp();
    }
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
