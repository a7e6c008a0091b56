// Memory fidelity: loads that several lanes share (the whole warp reads one float; pairs of
// lanes read one float) and a store by every other lane only.
#include <cstdio>
#include <cstdlib>

__global__ void broadcast_all(const float *in, float *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = in[blockIdx.x] + 1.0f;
}

__global__ void broadcast_pairs(const float *in, float *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = in[i / 2];
}

__global__ void store_odd(const float *in, float *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i % 2) out[i] = in[i];
}

int main() {
  const int n = 512;
  float *h = (float *)malloc(n * sizeof(float)), *r = (float *)malloc(n * sizeof(float));
  for (int i = 0; i < n; i++) h[i] = (float)i;
  float *in, *out;
  cudaMalloc(&in, n * sizeof(float)); cudaMalloc(&out, n * sizeof(float));
  cudaMemcpy(in, h, n * sizeof(float), cudaMemcpyHostToDevice);
  cudaMemset(out, 0, n * sizeof(float));
  int bad = 0;
  broadcast_all<<<n / 128, 128>>>(in, out);
  cudaMemcpy(r, out, n * sizeof(float), cudaMemcpyDeviceToHost);
  for (int i = 0; i < n; i++) bad += r[i] != h[i / 128] + 1.0f;
  broadcast_pairs<<<n / 128, 128>>>(in, out);
  cudaMemcpy(r, out, n * sizeof(float), cudaMemcpyDeviceToHost);
  for (int i = 0; i < n; i++) bad += r[i] != h[i / 2];
  store_odd<<<n / 128, 128>>>(in, out);
  cudaMemcpy(r, out, n * sizeof(float), cudaMemcpyDeviceToHost);
  for (int i = 1; i < n; i += 2) bad += r[i] != h[i];
  printf("broadcast_load %s\n", bad ? "FAIL" : "OK");
  return 0;
}
