// A block sum with shuffles inside each warp and one shared word per warp between a
// barrier and the final read: no hazard.
// expect-pascal: racecheck errors=0 warnings=0
// expect-volta: racecheck errors=0 warnings=0
#include <cstdio>
__global__ void blockSum(const int *in, int *out) {
  __shared__ int partial[2];
  int t = threadIdx.x, v = in[t];
  for (int d = 16; d > 0; d /= 2) v += __shfl_down_sync(0xffffffff, v, d);
  if (t % 32 == 0) partial[t / 32] = v;
  __syncthreads();
  if (t == 0) *out = partial[0] + partial[1];
}
int main() {
  int h[64], *din, *dout, r;
  for (int i = 0; i < 64; i++) h[i] = i;
  cudaMalloc(&din, sizeof h);
  cudaMalloc(&dout, sizeof(int));
  cudaMemcpy(din, h, sizeof h, cudaMemcpyHostToDevice);
  blockSum<<<1, 64>>>(din, dout);
  cudaMemcpy(&r, dout, sizeof(int), cudaMemcpyDeviceToHost);
  printf("sum = %d\n", r);
  return 0;
}
