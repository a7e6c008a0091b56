// The producer/consumer hand-off done right: the producer fences between the data and
// the flag, the consumer after seeing the flag.  No hazard.
// expect-pascal: racecheck errors=0 warnings=0
// expect-volta: racecheck errors=0 warnings=0
#include <cstdio>
__global__ void handoff(volatile int *data, volatile int *flag, int *out) {
  if (threadIdx.x != 0) return;
  if (blockIdx.x == 0) {
    data[0] = 42;
    __threadfence();
    flag[0] = 1;
  } else {
    while (flag[0] == 0) {}
    __threadfence();
    out[0] = data[0];
  }
}
int main() {
  int *data, *flag, *out, h;
  cudaMalloc(&data, sizeof(int));
  cudaMalloc(&flag, sizeof(int));
  cudaMalloc(&out, sizeof(int));
  cudaMemset(flag, 0, sizeof(int));
  handoff<<<2, 32>>>(data, flag, out);
  cudaMemcpy(&h, out, sizeof(int), cudaMemcpyDeviceToHost);
  printf("out = %d\n", h);
  return 0;
}
