// The same stencil with its barrier between the loads and the reads: no hazard.
// expect-pascal: racecheck errors=0 warnings=0
// expect-volta: racecheck errors=0 warnings=0
#include <cstdio>
#define N 64
__global__ void stencil(const int *in, int *out) {
  __shared__ int tile[N + 2];
  int t = threadIdx.x;
  tile[t + 1] = in[t];
  if (t == 0) tile[0] = 0;
  if (t == N - 1) tile[N + 1] = 0;
  __syncthreads();
  out[t] = tile[t] + tile[t + 1] + tile[t + 2];
}
int main() {
  int h[N], *din, *dout;
  for (int i = 0; i < N; i++) h[i] = i;
  cudaMalloc(&din, sizeof h);
  cudaMalloc(&dout, sizeof h);
  cudaMemcpy(din, h, sizeof h, cudaMemcpyHostToDevice);
  stencil<<<1, N>>>(din, dout);
  cudaMemcpy(h, dout, sizeof h, cudaMemcpyDeviceToHost);
  printf("%d %d %d\n", h[0], h[31], h[32]);
  return 0;
}
