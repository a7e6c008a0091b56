// Memory fidelity: a per-thread array of 64 floats written and read at indices loaded from
// memory, so ptxas keeps it in local memory: each load and store is one request at the
// lanes' own offsets.
#include <cstdio>
#include <cstdlib>

__global__ void local_dynamic(const int *index, float *out) {
  float a[64];
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  int k = index[t] & 63;
  a[k] = (float)t;
  a[(k + 1) & 63] = (float)(2 * t);
  out[t] = a[index[t + 1] & 63];
}

int main() {
  const int n = 256;
  int *h = (int *)malloc((n + 1) * sizeof(int));
  float *r = (float *)malloc(n * sizeof(float));
  for (int i = 0; i <= n; i++) h[i] = 5;
  int *index; float *out;
  cudaMalloc(&index, (n + 1) * sizeof(int)); cudaMalloc(&out, n * sizeof(float));
  cudaMemcpy(index, h, (n + 1) * sizeof(int), cudaMemcpyHostToDevice);
  local_dynamic<<<n / 128, 128>>>(index, out);
  cudaMemcpy(r, out, n * sizeof(float), cudaMemcpyDeviceToHost);
  int bad = 0;
  for (int i = 0; i < n; i++) bad += r[i] != (float)i;
  printf("local_dynamic %s\n", bad ? "FAIL" : "OK");
  return 0;
}
