// Memory fidelity: 64-bit and 128-bit global accesses: a float2 and a float4 copy, contiguous
// and with a stride of 2 elements.
#include <cstdio>
#include <cstdlib>

__global__ void copy_float2(const float2 *in, float2 *out, int stride) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = in[i * stride];
}

__global__ void copy_float4(const float4 *in, float4 *out, int stride) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = in[i * stride];
}

int main() {
  const int n = 512;
  float *h = (float *)malloc(n * 8 * sizeof(float)), *r = (float *)malloc(n * 4 * sizeof(float));
  for (int i = 0; i < n * 8; i++) h[i] = (float)i;
  float *in, *out;
  cudaMalloc(&in, n * 8 * sizeof(float)); cudaMalloc(&out, n * 4 * sizeof(float));
  cudaMemcpy(in, h, n * 8 * sizeof(float), cudaMemcpyHostToDevice);
  int bad = 0;
  for (int stride = 1; stride <= 2; stride++) {
    copy_float2<<<n / 128, 128>>>((const float2 *)in, (float2 *)out, stride);
    cudaMemcpy(r, out, n * 2 * sizeof(float), cudaMemcpyDeviceToHost);
    for (int i = 0; i < n; i++) bad += r[2 * i] != h[2 * i * stride] || r[2 * i + 1] != h[2 * i * stride + 1];
    copy_float4<<<n / 128, 128>>>((const float4 *)in, (float4 *)out, stride);
    cudaMemcpy(r, out, n * 4 * sizeof(float), cudaMemcpyDeviceToHost);
    for (int i = 0; i < n; i++)
      for (int k = 0; k < 4; k++) bad += r[4 * i + k] != h[4 * i * stride + k];
  }
  printf("vector_copy %s\n", bad ? "FAIL" : "OK");
  return 0;
}
