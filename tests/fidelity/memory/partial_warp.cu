// Memory fidelity: blocks of 48 threads (a partial second warp) copying with a stride of 2,
// and a grid-stride loop whose last pass leaves lanes idle.
#include <cstdio>
#include <cstdlib>

__global__ void partial_copy(const float *in, float *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = in[2 * i];
}

__global__ void grid_stride_copy(const float *in, float *out, int n) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x)
    out[i] = in[i] * 2.0f;
}

int main() {
  const int blocks = 4, threads = 48, n = 1000;
  float *h = (float *)malloc(2 * n * sizeof(float)), *r = (float *)malloc(n * sizeof(float));
  for (int i = 0; i < 2 * n; i++) h[i] = (float)i;
  float *in, *out;
  cudaMalloc(&in, 2 * n * sizeof(float)); cudaMalloc(&out, n * sizeof(float));
  cudaMemcpy(in, h, 2 * n * sizeof(float), cudaMemcpyHostToDevice);
  int bad = 0;
  partial_copy<<<blocks, threads>>>(in, out);
  cudaMemcpy(r, out, n * sizeof(float), cudaMemcpyDeviceToHost);
  for (int i = 0; i < blocks * threads; i++) bad += r[i] != h[2 * i];
  grid_stride_copy<<<3, 128>>>(in, out, n);
  cudaMemcpy(r, out, n * sizeof(float), cudaMemcpyDeviceToHost);
  for (int i = 0; i < n; i++) bad += r[i] != h[i] * 2.0f;
  printf("partial_warp %s\n", bad ? "FAIL" : "OK");
  return 0;
}
