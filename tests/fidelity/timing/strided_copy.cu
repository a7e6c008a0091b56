// Timing: out[i] = in[i * stride] for n floats (argv[1], default 1 << 20), strides 1 and 8.
#include "common.h"

__global__ void strided_copy(const float *in, float *out, int n, int stride) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = in[(size_t)i * stride];
}

int main(int argc, char **argv) {
  int n = argc > 1 ? atoi(argv[1]) : 1 << 20;
  float *in = device_array((size_t)n * 8, 1.0f), *out = device_array(n, 0.0f);
  int strides[2] = {1, 8}, bad = 0;
  for (int s = 0; s < 2; s++) {
    strided_copy<<<(n + 255) / 256, 256>>>(in, out, n, strides[s]);
    bad += host_at(out, 5) != (float)((5 * strides[s]) % 1024);
  }
  printf("strided_copy %s\n", bad ? "FAIL" : "OK");
  return 0;
}
