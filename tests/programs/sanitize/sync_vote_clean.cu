// Votes and a shuffle with full masks by a converged warp, and a barrier every thread
// reaches: no error.
// expect-pascal: synccheck errors=0
// expect-volta: synccheck errors=0
#include <cstdio>
__global__ void votes(const int *in, int *out) {
  __shared__ int count[2];
  int t = threadIdx.x;
  unsigned ballot = __ballot_sync(0xffffffff, in[t] > 10);
  int any = __any_sync(0xffffffff, in[t] > 60);
  if (t % 32 == 0) count[t / 32] = __popc(ballot) + any;
  __syncthreads();
  if (t == 0) *out = count[0] + count[1] + __shfl_sync(0xffffffff, t, 0);
}
int main() {
  int h[64], *din, *dout, r;
  for (int i = 0; i < 64; i++) h[i] = i;
  cudaMalloc(&din, sizeof h);
  cudaMalloc(&dout, sizeof(int));
  cudaMemcpy(din, h, sizeof h, cudaMemcpyHostToDevice);
  votes<<<1, 64>>>(din, dout);
  cudaMemcpy(&r, dout, sizeof(int), cudaMemcpyDeviceToHost);
  printf("count = %d\n", r);
  return 0;
}
