// Every thread sets a shared flag to 1 without a barrier between the writes: a
// write-write hazard whose values are equal, which racecheck reports as a warning.
// expect-pascal: racecheck errors=0 warnings=1
// expect-volta: racecheck errors=0 warnings=1
// gpu-differs: racecheck: compute-sanitizer 2025.3 shows no hazard for writes of equal values; minicuda reports them as warnings
#include <cstdio>
__global__ void setFlag(const int *in, int *out) {
  __shared__ int seen;
  if (threadIdx.x == 0) seen = 0;
  __syncthreads();
  if (in[threadIdx.x] > 0) seen = 1;
  __syncthreads();
  if (threadIdx.x == 0) *out = seen;
}
int main() {
  int h[64], *din, *dout, r;
  for (int i = 0; i < 64; i++) h[i] = 1;
  cudaMalloc(&din, sizeof h);
  cudaMalloc(&dout, sizeof(int));
  cudaMemcpy(din, h, sizeof h, cudaMemcpyHostToDevice);
  setFlag<<<1, 64>>>(din, dout);
  cudaMemcpy(&r, dout, sizeof(int), cudaMemcpyDeviceToHost);
  printf("seen = %d\n", r);
  return 0;
}
