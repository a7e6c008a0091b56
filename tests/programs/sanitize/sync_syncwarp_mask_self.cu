// Lanes 0..15 call __syncwarp(0xff): lanes 8..15 are not in the mask they pass.
// expect-pascal: synccheck errors=16
// expect-volta: synccheck errors=16
#include <cstdio>
__global__ void badMask(int *out) {
  __shared__ int s[32];
  int lane = threadIdx.x;
  s[lane] = lane;
  if (lane < 16) {
    __syncwarp(0xff);
    out[lane] = s[lane ^ 1];
  }
}
int main() {
  int *d, h[32];
  cudaMalloc(&d, sizeof h);
  badMask<<<1, 32>>>(d);
  cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost);
  printf("%d\n", h[0]);
  return 0;
}
