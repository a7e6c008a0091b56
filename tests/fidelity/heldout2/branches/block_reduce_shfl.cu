// Held-out kernel block_reduce_shfl: the two-stage block sum of the "Faster Parallel Reductions
// on Kepler" post: each warp sums with __shfl_down_sync, lane 0 writes its warp's sum to shared
// memory, and after a barrier the first warp sums those with __shfl_down_sync again; thread 0
// writes the block's sum.  2,000 ints.
// Launch: grid 8, block 256 (the last block partly past n).
#include <cstdio>
#include <cstdlib>

__inline__ __device__ int warp_sum(int v) {
  for (int offset = warpSize / 2; offset > 0; offset /= 2) v += __shfl_down_sync(0xffffffffu, v, offset);
  return v;
}

__global__ void block_reduce_shfl(const int *in, int *out, int n) {
  __shared__ int partial[32];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int lane = threadIdx.x % warpSize, wid = threadIdx.x / warpSize;
  int v = i < n ? in[i] : 0;
  v = warp_sum(v);
  if (lane == 0) partial[wid] = v;
  __syncthreads();
  v = threadIdx.x < blockDim.x / warpSize ? partial[lane] : 0;
  if (wid == 0) v = warp_sum(v);
  if (threadIdx.x == 0) out[blockIdx.x] = v;
}

int main() {
  const int n = 2000, blocks = 8;
  int h[n], got[blocks], ref[blocks] = {0};
  for (int i = 0; i < n; i++) {
    h[i] = (i * 37) % 101 - 50;
    ref[i / 256] += h[i];
  }
  int *din, *dout;
  cudaMalloc(&din, sizeof(h));
  cudaMalloc(&dout, sizeof(got));
  cudaMemcpy(din, h, sizeof(h), cudaMemcpyHostToDevice);
  block_reduce_shfl<<<blocks, 256>>>(din, dout, n);
  cudaMemcpy(got, dout, sizeof(got), cudaMemcpyDeviceToHost);
  int bad = 0;
  for (int b = 0; b < blocks; b++) bad += got[b] != ref[b];
  printf("block_reduce_shfl %s\n", bad == 0 ? "OK" : "FAIL");
  cudaFree(din);
  cudaFree(dout);
  return bad != 0;
}
