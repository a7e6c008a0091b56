// Memory fidelity: a float copy reading at an offset of 0, 1, 8, 16, 32 floats (one launch each).
// An offset of 1 touches 5 sectors per request for 4 useful: 80% load efficiency.
#include <cstdio>
#include <cstdlib>

__global__ void offset_copy(const float *in, float *out, int offset) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = in[i + offset];
}

int main() {
  const int n = 1024, pad = 64;
  float *h = (float *)malloc((n + pad) * sizeof(float)), *r = (float *)malloc(n * sizeof(float));
  for (int i = 0; i < n + pad; i++) h[i] = (float)(i * 3);
  float *in, *out;
  cudaMalloc(&in, (n + pad) * sizeof(float));
  cudaMalloc(&out, n * sizeof(float));
  cudaMemcpy(in, h, (n + pad) * sizeof(float), cudaMemcpyHostToDevice);
  const int offsets[5] = {0, 1, 8, 16, 32};
  int bad = 0;
  for (int k = 0; k < 5; k++) {
    offset_copy<<<n / 128, 128>>>(in, out, offsets[k]);
    cudaMemcpy(r, out, n * sizeof(float), cudaMemcpyDeviceToHost);
    for (int i = 0; i < n; i++) bad += r[i] != h[i + offsets[k]];
  }
  printf("offset_copy %s\n", bad ? "FAIL" : "OK");
  return 0;
}
