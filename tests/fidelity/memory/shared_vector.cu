// Memory fidelity: 64-bit and 128-bit shared accesses (float2, float4) read with four patterns
// (one launch each): contiguous, the first 8 (float4) or 16 (float2) elements repeated, one
// element for the whole warp, and a stride of 2 elements.
#include <cstdio>
#include <cstdlib>

__device__ int element(int t, int pattern, int repeat) {
  if (pattern == 0) return t;
  if (pattern == 1) return t % repeat;
  if (pattern == 2) return 0;
  return (t * 2) % 64;
}

__global__ void shared_float2(const float2 *in, float2 *out, int pattern) {
  __shared__ float2 s[64];
  int t = threadIdx.x;
  s[t] = in[t];
  __syncthreads();
  out[blockIdx.x * blockDim.x + t] = s[element(t, pattern, 16)];
}

__global__ void shared_float4(const float4 *in, float4 *out, int pattern) {
  __shared__ float4 s[64];
  int t = threadIdx.x;
  s[t] = in[t];
  __syncthreads();
  out[blockIdx.x * blockDim.x + t] = s[element(t, pattern, 8)];
}

int main() {
  const int threads = 64, blocks = 2;
  float *h = (float *)malloc(threads * 4 * sizeof(float)), *r = (float *)malloc(threads * blocks * 4 * sizeof(float));
  for (int i = 0; i < threads * 4; i++) h[i] = (float)i;
  float *in, *out;
  cudaMalloc(&in, threads * 4 * sizeof(float)); cudaMalloc(&out, threads * blocks * 4 * sizeof(float));
  cudaMemcpy(in, h, threads * 4 * sizeof(float), cudaMemcpyHostToDevice);
  int bad = 0;
  for (int pattern = 0; pattern < 4; pattern++) {
    shared_float2<<<blocks, threads>>>((const float2 *)in, (float2 *)out, pattern);
    cudaMemcpy(r, out, threads * blocks * 2 * sizeof(float), cudaMemcpyDeviceToHost);
    for (int i = 0; i < threads * blocks; i++) {
      int e = pattern == 0 ? i % threads : pattern == 1 ? (i % threads) % 16 : pattern == 2 ? 0 : ((i % threads) * 2) % 64;
      bad += r[2 * i] != h[2 * e] || r[2 * i + 1] != h[2 * e + 1];
    }
    shared_float4<<<blocks, threads>>>((const float4 *)in, (float4 *)out, pattern);
    cudaMemcpy(r, out, threads * blocks * 4 * sizeof(float), cudaMemcpyDeviceToHost);
    for (int i = 0; i < threads * blocks; i++) {
      int e = pattern == 0 ? i % threads : pattern == 1 ? (i % threads) % 8 : pattern == 2 ? 0 : ((i % threads) * 2) % 64;
      for (int k = 0; k < 4; k++) bad += r[4 * i + k] != h[4 * e + k];
    }
  }
  printf("shared_vector %s\n", bad ? "FAIL" : "OK");
  return 0;
}
