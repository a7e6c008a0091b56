// Memory fidelity: a float copy reading with a stride of 1, 2, 4, 8 floats (one launch each).
// Load efficiency 100, 50, 25, 12.5% with 4 sectors per request; the stores stay at 100%.
#include <cstdio>
#include <cstdlib>

__global__ void strided_copy(const float *in, float *out, int stride) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = in[i * stride];
}

int main() {
  const int n = 1024, most = 8;
  float *h = (float *)malloc(n * most * sizeof(float)), *r = (float *)malloc(n * sizeof(float));
  for (int i = 0; i < n * most; i++) h[i] = (float)i;
  float *in, *out;
  cudaMalloc(&in, n * most * sizeof(float));
  cudaMalloc(&out, n * sizeof(float));
  cudaMemcpy(in, h, n * most * sizeof(float), cudaMemcpyHostToDevice);
  int bad = 0;
  for (int stride = 1; stride <= most; stride *= 2) {
    strided_copy<<<n / 128, 128>>>(in, out, stride);
    cudaMemcpy(r, out, n * sizeof(float), cudaMemcpyDeviceToHost);
    for (int i = 0; i < n; i++) bad += r[i] != h[i * stride];
  }
  printf("strided_copy %s\n", bad ? "FAIL" : "OK");
  return 0;
}
