#include <cstdio>
#include <cstdlib>
#include <cstring>
int main() {
  float *d = 0;
  cudaError_t e = cudaMalloc(&d, (size_t)1 << 50);
  printf("cudaMalloc 2^50: %s %s ptr=%p\n", cudaGetErrorName(e), cudaGetErrorString(e), (void*)d);
  printf("last: %s\n", cudaGetErrorName(cudaGetLastError()));
  e = cudaMalloc(&d, (size_t)-1);
  printf("cudaMalloc SIZE_MAX: %s\n", cudaGetErrorName(e));
  e = cudaMalloc(&d, 0);
  printf("cudaMalloc 0: %s ptr_null=%d\n", cudaGetErrorName(e), d == 0);
  e = cudaMalloc(&d, 1024);
  e = cudaMemset(d, 0, (size_t)1 << 40);
  printf("cudaMemset huge: %s %s\n", cudaGetErrorName(e), cudaGetErrorString(e));
  printf("sync: %s\n", cudaGetErrorName(cudaDeviceSynchronize()));
  e = cudaMemset(d, 0, 2048);
  printf("cudaMemset 2x: %s\n", cudaGetErrorName(e));
  printf("sync: %s\n", cudaGetErrorName(cudaDeviceSynchronize()));
  float h[4];
  e = cudaMemcpy(h, d, (size_t)1 << 40, cudaMemcpyDeviceToHost);
  printf("cudaMemcpy huge: %s\n", cudaGetErrorName(e));
  void *p = malloc((size_t)1 << 50);
  printf("malloc 2^50 null=%d\n", p == 0);
  p = malloc((size_t)-1);
  printf("malloc SIZE_MAX null=%d\n", p == 0);
  return 0;
}
