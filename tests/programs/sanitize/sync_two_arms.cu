// The two warps of a block wait at two different __syncthreads(), one in each arm of
// an if: synccheck reports every waiting thread.
// expect-pascal: synccheck errors=32
// expect-volta: synccheck errors=32
#include <cstdio>
__global__ void twoArms(int *out) {
  __shared__ int s[64];
  int t = threadIdx.x;
  if (t < 32) {
    s[t] = t;
    __syncthreads();
  } else {
    s[t] = -t;
    __syncthreads();
  }
  out[t] = s[63 - t];
}
int main() {
  int *d, h[64];
  cudaMalloc(&d, sizeof h);
  twoArms<<<1, 64>>>(d);
  cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost);
  printf("%d %d\n", h[0], h[63]);
  return 0;
}
