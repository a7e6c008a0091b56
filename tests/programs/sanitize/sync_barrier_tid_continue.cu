// A barrier inside if (tid < N) whose skipping threads go on to the barrier after it:
// the block waits at two different barriers.
// expect-pascal: synccheck errors=32
// expect-volta: synccheck errors=32
#include <cstdio>
#define N 32
__global__ void partial(int *out) {
  __shared__ int s[64];
  int t = threadIdx.x;
  s[t] = t;
  if (t < N) {
    __syncthreads();
    s[t] += 1;
  }
  __syncthreads();
  out[t] = s[63 - t];
}
int main() {
  int *d, h[64];
  cudaMalloc(&d, sizeof h);
  partial<<<1, 64>>>(d);
  cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost);
  printf("%d %d\n", h[0], h[63]);
  return 0;
}
