// cudaEventElapsedTime under the timing model: a 1 MiB copy to the device, a stride-1 and a
// stride-8 copy kernel, and a 64x64 transpose through a 32x32 shared tile, unpadded and padded,
// each timed with events; the program prints the five times in ms, then the stride-8 copy
// timed on the host with gettimeofday, in ms.
#include <cstdio>
#include <cstdlib>
#include <sys/time.h>

__global__ void strided(const float *in, float *out, int n, int stride) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = in[i * stride];
}

template <int PAD>
__global__ void transpose_tile(const float *in, float *out, int n) {
  __shared__ float tile[32][32 + PAD];
  int x = blockIdx.x * 32 + threadIdx.x, y = blockIdx.y * 32 + threadIdx.y;
  for (int j = 0; j < 32; j += 8) tile[threadIdx.y + j][threadIdx.x] = in[(y + j) * n + x];
  __syncthreads();
  x = blockIdx.y * 32 + threadIdx.x;
  y = blockIdx.x * 32 + threadIdx.y;
  for (int j = 0; j < 32; j += 8) out[(y + j) * n + x] = tile[threadIdx.x][threadIdx.y + j];
}

int main() {
  const int n = 4096;
  float *h = (float *)calloc(8 * n + (1 << 18), sizeof(float)), *in, *out;
  cudaMalloc(&in, (size_t)8 * n * sizeof(float) + (1 << 20));
  cudaMalloc(&out, n * sizeof(float));
  cudaEvent_t a, b;
  cudaEventCreate(&a); cudaEventCreate(&b);
  float ms[5];
  cudaEventRecord(a);
  cudaMemcpy(in, h, 1 << 20, cudaMemcpyHostToDevice);
  cudaEventRecord(b);
  cudaEventSynchronize(b);
  cudaEventElapsedTime(&ms[0], a, b);
  for (int k = 1; k < 5; k++) {
    cudaEventRecord(a);
    if (k < 3) strided<<<n / 256, 256>>>(in, out, n, k == 1 ? 1 : 8);
    else if (k == 3) transpose_tile<0><<<dim3(2, 2), dim3(32, 8)>>>(in, out, 64);
    else transpose_tile<1><<<dim3(2, 2), dim3(32, 8)>>>(in, out, 64);
    cudaEventRecord(b);
    cudaEventSynchronize(b);
    cudaEventElapsedTime(&ms[k], a, b);
  }
  printf("copy %.6f stride1 %.6f stride8 %.6f tile %.6f padded %.6f\n", ms[0], ms[1], ms[2], ms[3], ms[4]);
  struct timeval t0, t1;
  gettimeofday(&t0, NULL);
  strided<<<n / 256, 256>>>(in, out, n, 8);
  cudaDeviceSynchronize();
  gettimeofday(&t1, NULL);
  printf("host %.6f\n", (t1.tv_sec - t0.tv_sec) * 1e3 + (t1.tv_usec - t0.tv_usec) * 1e-3);
  return 0;
}
