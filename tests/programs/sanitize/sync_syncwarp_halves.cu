// Each half of a warp synchronises itself in its arm of an if: every lane is named by
// its own mask and the halves do not name each other.  No error.
// expect-pascal: synccheck errors=0
// expect-volta: synccheck errors=0
#include <cstdio>
__global__ void halves(int *out) {
  __shared__ int s[32];
  int lane = threadIdx.x;
  s[lane] = lane;
  if (lane < 16) {
    __syncwarp(0x0000ffff);
    out[lane] = s[lane ^ 1];
  } else {
    __syncwarp(0xffff0000);
    out[lane] = s[lane ^ 1];
  }
}
int main() {
  int *d, h[32];
  cudaMalloc(&d, sizeof h);
  halves<<<1, 32>>>(d);
  cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost);
  printf("%d %d\n", h[0], h[31]);
  return 0;
}
