// A barrier inside if (tid < N) that the other threads skip on their way to exit
// (N = 48 is not a multiple of the warp): sm_70+ completes it with the threads that
// have not exited, and synccheck reports nothing.  At -O3 the if around the rest of the
// kernel is `@!P0 EXIT` ahead of it, as ptxas makes it on every arch: under the stack
// model too the warp that straddles N reaches the barrier converged, its other threads
// exited (a warning, no error).  At -O0 the branch is kept and that warp reaches the
// barrier divergent (its other threads exit only after it reconverges): minicuda's error
// for that, one per waiting thread (test_sanitize_corpus.py checks both).
// expect-pascal: synccheck errors=0
// expect-volta: synccheck errors=0
#include <cstdio>
#define N 48
__global__ void partial(int *out) {
  __shared__ int s[64];
  int t = threadIdx.x;
  if (t < N) {
    s[t] = t;
    __syncthreads();
    out[t] = s[N - 1 - t];
  }
}
int main() {
  int *d, h[64];
  cudaMalloc(&d, sizeof h);
  partial<<<1, 64>>>(d);
  cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost);
  printf("%d %d\n", h[0], h[47]);
  return 0;
}
