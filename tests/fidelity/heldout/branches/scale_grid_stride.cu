// Held-out kernel scale_grid_stride: a grid-stride loop (the "CUDA Pro Tip" pattern), a small
// grid of 2 blocks of 64 threads covering 1000 elements, y = a*x + y on ints.
#include <cstdio>
#include <cstdlib>

__global__ void scale_grid_stride(int n, int a, const int *x, int *y) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x)
    y[i] = a * x[i] + y[i];
}

int main() {
  const int n = 1000;
  int *x = (int *)malloc(n * sizeof(int)), *y = (int *)malloc(n * sizeof(int));
  for (int i = 0; i < n; i++) {
    x[i] = i % 10;
    y[i] = i % 3;
  }
  int *dx, *dy;
  cudaMalloc(&dx, n * sizeof(int));
  cudaMalloc(&dy, n * sizeof(int));
  cudaMemcpy(dx, x, n * sizeof(int), cudaMemcpyHostToDevice);
  cudaMemcpy(dy, y, n * sizeof(int), cudaMemcpyHostToDevice);
  scale_grid_stride<<<2, 64>>>(n, 7, dx, dy);
  cudaMemcpy(y, dy, n * sizeof(int), cudaMemcpyDeviceToHost);
  int maxerr = 0;
  for (int i = 0; i < n; i++) {
    int e = abs(y[i] - (7 * (i % 10) + i % 3));
    if (e > maxerr) maxerr = e;
  }
  printf("scale_grid_stride %s\n", maxerr == 0 ? "OK" : "FAIL");
  cudaFree(dx);
  cudaFree(dy);
  free(x);
  free(y);
  return maxerr != 0;
}
