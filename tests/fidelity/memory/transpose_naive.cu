// Memory fidelity: a naive transpose of a 128x128 matrix, reading rows and writing columns
// (12.5% store efficiency, 32 sectors per store request), then reading columns and writing rows.
#include <cstdio>
#include <cstdlib>

__global__ void transpose_read_rows(const float *in, float *out, int nx, int ny) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x < nx && y < ny) out[x * ny + y] = in[y * nx + x];
}

__global__ void transpose_read_cols(const float *in, float *out, int nx, int ny) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x < nx && y < ny) out[y * nx + x] = in[x * ny + y];
}

int main() {
  const int nx = 128, ny = 128, n = nx * ny;
  float *h = (float *)malloc(n * sizeof(float)), *r = (float *)malloc(n * sizeof(float));
  for (int i = 0; i < n; i++) h[i] = (float)i;
  float *in, *out;
  cudaMalloc(&in, n * sizeof(float)); cudaMalloc(&out, n * sizeof(float));
  cudaMemcpy(in, h, n * sizeof(float), cudaMemcpyHostToDevice);
  dim3 block(32, 8), grid(nx / 32, ny / 8);
  int bad = 0;
  transpose_read_rows<<<grid, block>>>(in, out, nx, ny);
  cudaMemcpy(r, out, n * sizeof(float), cudaMemcpyDeviceToHost);
  for (int y = 0; y < ny; y++) for (int x = 0; x < nx; x++) bad += r[x * ny + y] != h[y * nx + x];
  transpose_read_cols<<<grid, block>>>(in, out, nx, ny);
  cudaMemcpy(r, out, n * sizeof(float), cudaMemcpyDeviceToHost);
  for (int y = 0; y < ny; y++) for (int x = 0; x < nx; x++) bad += r[y * nx + x] != h[x * ny + y];
  printf("transpose_naive %s\n", bad ? "FAIL" : "OK");
  return 0;
}
