// One thread per block adds to a global total under a spin lock taken with atomicCAS,
// with fences on both sides: the lock orders the additions.  No hazard.
// expect-pascal: racecheck errors=0 warnings=0
// expect-volta: racecheck errors=0 warnings=0
#include <cstdio>
__global__ void locked(int *lock, int *total) {
  if (threadIdx.x == 0) {
    while (atomicCAS(lock, 0, 1) != 0) {}
    __threadfence();
    *total = *total + blockIdx.x + 1;
    __threadfence();
    atomicExch(lock, 0);
  }
}
int main() {
  int *lock, *total, h;
  cudaMalloc(&lock, sizeof(int));
  cudaMalloc(&total, sizeof(int));
  cudaMemset(lock, 0, sizeof(int));
  cudaMemset(total, 0, sizeof(int));
  locked<<<4, 32>>>(lock, total);
  cudaMemcpy(&h, total, sizeof(int), cudaMemcpyDeviceToHost);
  printf("total = %d\n", h);
  return 0;
}
