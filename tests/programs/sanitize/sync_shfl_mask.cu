// Every lane of a warp shuffles with a mask naming only the low half: the high half's
// lanes are active participants the mask leaves out.
// expect-pascal: synccheck errors=16
// expect-volta: synccheck errors=16
// gpu-differs: synccheck: compute-sanitizer 2025.3 does not check a shuffle's mask; minicuda does
#include <cstdio>
__global__ void shuffle(int *out) {
  int lane = threadIdx.x;
  out[lane] = __shfl_sync(0x0000ffff, lane * 2, 0);
}
int main() {
  int *d, h[32];
  cudaMalloc(&d, sizeof h);
  shuffle<<<1, 32>>>(d);
  cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost);
  printf("%d\n", h[0]);
  return 0;
}
