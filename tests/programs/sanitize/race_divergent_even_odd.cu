// Lanes of one warp write the same shared word in the two arms of an if: the stack
// model runs the arms one after the other (a race between them), ITS as it likes.
// expect-pascal: racecheck errors=1 warnings=0
// expect-volta: racecheck errors=1 warnings=2
#include <cstdio>
__global__ void evenOdd(int *out) {
  __shared__ int word;
  int t = threadIdx.x;
  if (t % 2 == 0)
    word = 1;
  else
    word = 2;
  __syncthreads();
  if (t == 0) *out = word;
}
int main() {
  int *d, h;
  cudaMalloc(&d, sizeof(int));
  evenOdd<<<1, 32>>>(d);
  cudaMemcpy(&h, d, sizeof(int), cudaMemcpyDeviceToHost);
  printf("word = %d\n", h);
  return 0;
}
