// The two halves of a warp reach __syncwarp() in the two arms of an if, the low half
// naming itself, the high half the whole warp: the lanes disagree on the mask.
// expect-pascal: synccheck errors=16
// expect-volta: synccheck errors=16
// gpu-differs: synccheck: compute-sanitizer 2025.3 does not compare the masks of lanes in two arms; minicuda does
#include <cstdio>
__global__ void disagree(int *out) {
  int lane = threadIdx.x;
  int v = lane;
  if (lane < 16) {
    v += 1;
    __syncwarp(0x0000ffff);
  } else {
    v += 2;
    __syncwarp(0xffffffff);
  }
  out[lane] = v;
}
int main() {
  int *d, h[32];
  cudaMalloc(&d, sizeof h);
  disagree<<<1, 32>>>(d);
  cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost);
  printf("%d %d\n", h[0], h[31]);
  return 0;
}
