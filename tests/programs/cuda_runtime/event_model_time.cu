// cudaEventElapsedTime under the timing model: a 1 MiB copy to the device, then a stride-1 and
// a stride-8 copy kernel, each timed with events; the program prints the three times in ms.
#include <cstdio>

__global__ void strided(const float *in, float *out, int n, int stride) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = in[i * stride];
}

int main() {
  const int n = 4096;
  float *h = (float *)calloc(8 * n + (1 << 18), sizeof(float)), *in, *out;
  cudaMalloc(&in, (size_t)8 * n * sizeof(float) + (1 << 20));
  cudaMalloc(&out, n * sizeof(float));
  cudaEvent_t a, b;
  cudaEventCreate(&a); cudaEventCreate(&b);
  float ms[3];
  cudaEventRecord(a);
  cudaMemcpy(in, h, 1 << 20, cudaMemcpyHostToDevice);
  cudaEventRecord(b);
  cudaEventSynchronize(b);
  cudaEventElapsedTime(&ms[0], a, b);
  for (int s = 0; s < 2; s++) {
    cudaEventRecord(a);
    strided<<<n / 256, 256>>>(in, out, n, s ? 8 : 1);
    cudaEventRecord(b);
    cudaEventSynchronize(b);
    cudaEventElapsedTime(&ms[1 + s], a, b);
  }
  printf("copy %.6f stride1 %.6f stride8 %.6f\n", ms[0], ms[1], ms[2]);
  return 0;
}
