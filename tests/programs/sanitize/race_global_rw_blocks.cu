// Block 0 writes an array that block 1 reads: a read-write race across blocks in
// global memory (blocks are ordered by nothing within a launch).
// expect-pascal: racecheck errors=1 warnings=0
// expect-volta: racecheck errors=1 warnings=0
#include <cstdio>
__global__ void crossBlock(int *a, int *out) {
  int t = threadIdx.x;
  if (blockIdx.x == 0)
    a[t] = t + 1;
  else
    out[t] = a[t];
}
int main() {
  int *a, *out, h[32];
  cudaMalloc(&a, sizeof h);
  cudaMalloc(&out, sizeof h);
  cudaMemset(a, 0, sizeof h);
  crossBlock<<<2, 32>>>(a, out);
  cudaMemcpy(h, out, sizeof h, cudaMemcpyDeviceToHost);
  printf("out[5] is 0 or 6: %d\n", h[5] == 0 || h[5] == 6);
  return 0;
}
