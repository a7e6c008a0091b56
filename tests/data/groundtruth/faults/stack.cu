#include <cstdio>
#include <cstdlib>
__device__ int rec(int n, const int *src) {
  int local[16];
  for (int i = 0; i < 16; i++) local[i] = src[i] + n;
  if (n == 0) return local[src[0] & 15];
  int r = rec(n - 1, src);
  return r + local[(r + n) & 15] - local[(r + n) & 15] + 1;
}
__global__ void k(int depth, int *out, const int *src) { out[threadIdx.x] = rec(depth, src); }
int main(int argc, char **argv) {
  int depth = atoi(argv[1]);
  size_t lim = 0;
  cudaDeviceGetLimit(&lim, cudaLimitStackSize);
  printf("default stack limit %zu\n", lim);
  if (argc > 2) { cudaError_t e = cudaDeviceSetLimit(cudaLimitStackSize, atoi(argv[2])); printf("set %s: %s\n", argv[2], cudaGetErrorString(e)); cudaDeviceGetLimit(&lim, cudaLimitStackSize); printf("now %zu\n", lim); }
  int *out, *src; cudaMalloc(&out, 32 * sizeof(int)); cudaMalloc(&src, 16 * sizeof(int));
  cudaMemset(src, 0, 16 * sizeof(int));
  k<<<1, 32>>>(depth, out, src);
  cudaError_t e = cudaGetLastError();
  printf("launch: %s %s\n", cudaGetErrorName(e), cudaGetErrorString(e));
  e = cudaDeviceSynchronize();
  printf("sync: %s %s\n", cudaGetErrorName(e), cudaGetErrorString(e));
  int h = -1; cudaMemcpy(&h, out, sizeof(int), cudaMemcpyDeviceToHost);
  printf("result %d\n", h);
  e = cudaGetLastError();
  printf("after: %s\n", cudaGetErrorName(e));
  return 0;
}
