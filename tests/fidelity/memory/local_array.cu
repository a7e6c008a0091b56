// Memory fidelity: a per-thread array indexed by a loaded value, which lives in local memory.
#include <cstdio>
#include <cstdlib>

__global__ void local_array(const int *index, float *out) {
  float a[16];
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  for (int k = 0; k < 16; k++) a[k] = (float)(t + k);
  out[t] = a[index[t] & 15];
}

int main() {
  const int n = 256;
  int *h = (int *)malloc(n * sizeof(int));
  float *r = (float *)malloc(n * sizeof(float));
  for (int i = 0; i < n; i++) h[i] = (i * 7) % 16;
  int *index; float *out;
  cudaMalloc(&index, n * sizeof(int)); cudaMalloc(&out, n * sizeof(float));
  cudaMemcpy(index, h, n * sizeof(int), cudaMemcpyHostToDevice);
  local_array<<<n / 128, 128>>>(index, out);
  cudaMemcpy(r, out, n * sizeof(float), cudaMemcpyDeviceToHost);
  int bad = 0;
  for (int i = 0; i < n; i++) bad += r[i] != (float)(i + h[i]);
  printf("local_array %s\n", bad ? "FAIL" : "OK");
  return 0;
}
