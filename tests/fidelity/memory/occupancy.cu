// Occupancy fidelity: sumMatrix with blocks of (32,32), (32,16), (16,16), (8,8) and (16,4),
// and a kernel whose dynamic shared memory (40 KiB, then 100 KiB) limits the blocks per SM.
#include <cstdio>
#include <cstdlib>

__global__ void sum_matrix(const float *a, const float *b, float *c, int nx, int ny) {
  int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x < nx && y < ny) c[y * nx + x] = a[y * nx + x] + b[y * nx + x];
}

__global__ void shared_heavy(float *out) {
  extern __shared__ float s[];
  s[threadIdx.x] = (float)threadIdx.x;
  __syncthreads();
  out[blockIdx.x * blockDim.x + threadIdx.x] = s[blockDim.x - 1 - threadIdx.x];
}

int main() {
  const int nx = 64, ny = 64, n = nx * ny;
  float *h = (float *)malloc(n * sizeof(float)), *r = (float *)malloc(n * sizeof(float));
  for (int i = 0; i < n; i++) h[i] = (float)i;
  float *a, *b, *c;
  cudaMalloc(&a, n * sizeof(float)); cudaMalloc(&b, n * sizeof(float)); cudaMalloc(&c, n * sizeof(float));
  cudaMemcpy(a, h, n * sizeof(float), cudaMemcpyHostToDevice);
  cudaMemcpy(b, h, n * sizeof(float), cudaMemcpyHostToDevice);
  const int shapes[5][2] = {{32, 32}, {32, 16}, {16, 16}, {8, 8}, {16, 4}};
  int bad = 0;
  for (int k = 0; k < 5; k++) {
    dim3 block(shapes[k][0], shapes[k][1]), grid((nx + block.x - 1) / block.x, (ny + block.y - 1) / block.y);
    sum_matrix<<<grid, block>>>(a, b, c, nx, ny);
    cudaMemcpy(r, c, n * sizeof(float), cudaMemcpyDeviceToHost);
    for (int i = 0; i < n; i++) bad += r[i] != 2.0f * h[i];
  }
  cudaFuncSetAttribute(shared_heavy, cudaFuncAttributeMaxDynamicSharedMemorySize, 100 * 1024);
  const int bytes[2] = {40 * 1024, 100 * 1024};
  for (int k = 0; k < 2; k++) {
    shared_heavy<<<4, 256, bytes[k]>>>(c);
    cudaMemcpy(r, c, 1024 * sizeof(float), cudaMemcpyDeviceToHost);
    for (int i = 0; i < 1024; i++) bad += r[i] != (float)(255 - i % 256);
  }
  printf("occupancy %s\n", bad ? "FAIL" : "OK");
  return 0;
}
