// Memory fidelity: an array of {float x; float y;} incremented field by field (50% load and
// store efficiency), and the same data as two arrays (100%).
#include <cstdio>
#include <cstdlib>

struct Point { float x; float y; };

__global__ void aos_increment(Point *p, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    p[i].x += 1.0f;
    p[i].y += 2.0f;
  }
}

__global__ void soa_increment(float *x, float *y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    x[i] += 1.0f;
    y[i] += 2.0f;
  }
}

int main() {
  const int n = 2048;
  Point *hp = (Point *)malloc(n * sizeof(Point));
  float *hx = (float *)malloc(n * sizeof(float)), *hy = (float *)malloc(n * sizeof(float));
  for (int i = 0; i < n; i++) { hp[i].x = hx[i] = (float)i; hp[i].y = hy[i] = (float)(2 * i); }
  Point *p; float *x, *y;
  cudaMalloc(&p, n * sizeof(Point)); cudaMalloc(&x, n * sizeof(float)); cudaMalloc(&y, n * sizeof(float));
  cudaMemcpy(p, hp, n * sizeof(Point), cudaMemcpyHostToDevice);
  cudaMemcpy(x, hx, n * sizeof(float), cudaMemcpyHostToDevice);
  cudaMemcpy(y, hy, n * sizeof(float), cudaMemcpyHostToDevice);
  aos_increment<<<n / 256, 256>>>(p, n);
  soa_increment<<<n / 256, 256>>>(x, y, n);
  cudaMemcpy(hp, p, n * sizeof(Point), cudaMemcpyDeviceToHost);
  cudaMemcpy(hx, x, n * sizeof(float), cudaMemcpyDeviceToHost);
  cudaMemcpy(hy, y, n * sizeof(float), cudaMemcpyDeviceToHost);
  int bad = 0;
  for (int i = 0; i < n; i++)
    bad += hp[i].x != i + 1.0f || hp[i].y != 2 * i + 2.0f || hx[i] != i + 1.0f || hy[i] != 2 * i + 2.0f;
  printf("aos_soa %s\n", bad ? "FAIL" : "OK");
  return 0;
}
