// The pair exchange of race_missing_syncwarp with its __syncwarp(): no hazard.
// expect-pascal: racecheck errors=0 warnings=0
// expect-volta: racecheck errors=0 warnings=0
#include <cstdio>
__global__ void swapPairs(int *out) {
  __shared__ int s[32];
  int lane = threadIdx.x;
  s[lane] = lane * 10;
  __syncwarp();
  out[lane] = s[lane ^ 1];
}
int main() {
  int *d, h[32];
  cudaMalloc(&d, sizeof h);
  swapPairs<<<1, 32>>>(d);
  cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost);
  printf("%d %d\n", h[0], h[1]);
  return 0;
}
