// Memory fidelity: shared-memory stores and loads with a stride of 1, 2, 4, 8, 16, 32 words
// (one launch each): 0, 1, 3, 7, 15, 31 extra wavefronts per request.
#include <cstdio>
#include <cstdlib>

__global__ void shared_stride(float *out, int stride) {
  __shared__ float s[64 * 32];
  int t = threadIdx.x;
  s[t * stride] = (float)t;
  __syncthreads();
  out[blockIdx.x * blockDim.x + t] = s[(t ^ 1) * stride];
}

int main() {
  const int threads = 64, blocks = 2;
  float *out, *r = (float *)malloc(threads * blocks * sizeof(float));
  cudaMalloc(&out, threads * blocks * sizeof(float));
  int bad = 0;
  for (int stride = 1; stride <= 32; stride *= 2) {
    shared_stride<<<blocks, threads>>>(out, stride);
    cudaMemcpy(r, out, threads * blocks * sizeof(float), cudaMemcpyDeviceToHost);
    for (int i = 0; i < threads * blocks; i++) bad += r[i] != (float)((i % threads) ^ 1);
  }
  printf("shared_stride %s\n", bad ? "FAIL" : "OK");
  return 0;
}
