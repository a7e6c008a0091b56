// The locked addition of race_lock_protected, but the last block adds without taking
// the lock: its read and write race with the others'.
// expect-pascal: racecheck errors=2 warnings=0
// expect-volta: racecheck errors=2 warnings=0
#include <cstdio>
__global__ void locked(int *lock, int *total) {
  if (threadIdx.x != 0) return;
  if (blockIdx.x == gridDim.x - 1) {
    *total = *total + 100;
    return;
  }
  while (atomicCAS(lock, 0, 1) != 0) {}
  __threadfence();
  *total = *total + blockIdx.x + 1;
  __threadfence();
  atomicExch(lock, 0);
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
