// Memory fidelity: 64-bit and 128-bit shared loads that lanes share in other ways (one launch
// per pattern): each half-warp one element, each quarter-warp one element, each pair of lanes
// one element, and lanes 0-15 one element while the others read their own.
#include <cstdio>
#include <cstdlib>

__device__ int element(int t, int pattern) {
  if (pattern == 0) return t / 16;
  if (pattern == 1) return t / 8;
  if (pattern == 2) return t / 2;
  return t < 16 ? 0 : t;
}

__global__ void broadcast_float2(const float2 *in, float2 *out, int pattern) {
  __shared__ float2 s[64];
  int t = threadIdx.x;
  s[t] = in[t];
  __syncthreads();
  out[blockIdx.x * blockDim.x + t] = s[element(t % 32, pattern) + (t / 32) * 32];
}

__global__ void broadcast_float4(const float4 *in, float4 *out, int pattern) {
  __shared__ float4 s[64];
  int t = threadIdx.x;
  s[t] = in[t];
  __syncthreads();
  out[blockIdx.x * blockDim.x + t] = s[element(t % 32, pattern) + (t / 32) * 32];
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
    broadcast_float2<<<blocks, threads>>>((const float2 *)in, (float2 *)out, pattern);
    cudaMemcpy(r, out, threads * blocks * 2 * sizeof(float), cudaMemcpyDeviceToHost);
    for (int i = 0; i < threads * blocks; i++) {
      int t = i % threads, t32 = t % 32;
      int e = (pattern == 0 ? t32 / 16 : pattern == 1 ? t32 / 8 : pattern == 2 ? t32 / 2 : (t32 < 16 ? 0 : t32)) + (t / 32) * 32;
      bad += r[2 * i] != h[2 * e] || r[2 * i + 1] != h[2 * e + 1];
    }
    broadcast_float4<<<blocks, threads>>>((const float4 *)in, (float4 *)out, pattern);
    cudaMemcpy(r, out, threads * blocks * 4 * sizeof(float), cudaMemcpyDeviceToHost);
    for (int i = 0; i < threads * blocks; i++) {
      int t = i % threads, t32 = t % 32;
      int e = (pattern == 0 ? t32 / 16 : pattern == 1 ? t32 / 8 : pattern == 2 ? t32 / 2 : (t32 < 16 ? 0 : t32)) + (t / 32) * 32;
      for (int k = 0; k < 4; k++) bad += r[4 * i + k] != h[4 * e + k];
    }
  }
  printf("shared_vector_broadcast %s\n", bad ? "FAIL" : "OK");
  return 0;
}
