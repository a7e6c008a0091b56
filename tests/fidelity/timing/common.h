// Shared helpers of the timing fidelity programs: a checked allocation and a fill.
#include <cstdio>
#include <cstdlib>

static float *device_array(size_t n, float scale) {
  float *h = (float *)malloc(n * sizeof(float)), *d;
  for (size_t i = 0; i < n; i++) h[i] = (float)(i % 1024) * scale;
  cudaMalloc(&d, n * sizeof(float));
  cudaMemcpy(d, h, n * sizeof(float), cudaMemcpyHostToDevice);
  free(h);
  return d;
}

static float host_at(const float *d, size_t i) {
  float v;
  cudaMemcpy(&v, d + i, sizeof(float), cudaMemcpyDeviceToHost);
  return v;
}
