// Every thread of two warps writes its own index to one global word: a write-write
// race between the warps (and, under ITS, between the lanes of each warp).
// expect-pascal: racecheck errors=1 warnings=0
// expect-volta: racecheck errors=1 warnings=0
#include <cstdio>
__global__ void last(int *out) {
  out[0] = threadIdx.x;
}
int main() {
  int *d, h;
  cudaMalloc(&d, sizeof(int));
  last<<<1, 64>>>(d);
  cudaMemcpy(&h, d, sizeof(int), cudaMemcpyDeviceToHost);
  printf("a thread wrote last: %d\n", h >= 0 && h < 64);
  return 0;
}
