// Held-out kernel heat_stencil_2d: one Jacobi step of the 2D heat equation (5-point stencil) on
// a 60 x 36 int grid, staged in a shared tile with a one-cell halo (course exercises on
// shared-memory stencils): each thread loads its cell, edge threads load the halo cells, every
// load guarded by the grid's bounds (zero outside); boundary cells keep their value.
// Launch: grid 4 x 5, block 16 x 8 (partial blocks on both edges).
#include <cstdio>
#include <cstdlib>

#define BX 16
#define BY 8

__global__ void heat_stencil_2d(const int *u, int *v, int w, int h) {
  __shared__ int s[BY + 2][BX + 2];
  int x = blockIdx.x * BX + threadIdx.x, y = blockIdx.y * BY + threadIdx.y;
  int tx = threadIdx.x + 1, ty = threadIdx.y + 1;
  bool inside = x < w && y < h;
  s[ty][tx] = inside ? u[y * w + x] : 0;
  if (threadIdx.x == 0) s[ty][0] = (x > 0 && y < h) ? u[y * w + x - 1] : 0;
  if (threadIdx.x == BX - 1) s[ty][BX + 1] = (x + 1 < w && y < h) ? u[y * w + x + 1] : 0;
  if (threadIdx.y == 0) s[0][tx] = (y > 0 && x < w) ? u[(y - 1) * w + x] : 0;
  if (threadIdx.y == BY - 1) s[BY + 1][tx] = (y + 1 < h && x < w) ? u[(y + 1) * w + x] : 0;
  __syncthreads();
  if (!inside) return;
  if (x == 0 || y == 0 || x == w - 1 || y == h - 1) {
    v[y * w + x] = s[ty][tx];
  } else {
    v[y * w + x] = (s[ty][tx - 1] + s[ty][tx + 1] + s[ty - 1][tx] + s[ty + 1][tx] + 4 * s[ty][tx]) / 8;
  }
}

int main() {
  const int w = 60, h = 36, n = w * h;
  int *u = (int *)malloc(n * sizeof(int)), *v = (int *)malloc(n * sizeof(int));
  for (int i = 0; i < n; i++) u[i] = (i * 131) % 97;
  int *du, *dv;
  cudaMalloc(&du, n * sizeof(int));
  cudaMalloc(&dv, n * sizeof(int));
  cudaMemcpy(du, u, n * sizeof(int), cudaMemcpyHostToDevice);
  dim3 block(BX, BY), grid((w + BX - 1) / BX, (h + BY - 1) / BY);
  heat_stencil_2d<<<grid, block>>>(du, dv, w, h);
  cudaMemcpy(v, dv, n * sizeof(int), cudaMemcpyDeviceToHost);
  int bad = 0;
  for (int y = 0; y < h; y++)
    for (int x = 0; x < w; x++) {
      int c = u[y * w + x], r;
      if (x == 0 || y == 0 || x == w - 1 || y == h - 1) r = c;
      else r = (u[y * w + x - 1] + u[y * w + x + 1] + u[(y - 1) * w + x] + u[(y + 1) * w + x] + 4 * c) / 8;
      bad += v[y * w + x] != r;
    }
  printf("heat_stencil_2d %s\n", bad == 0 ? "OK" : "FAIL");
  cudaFree(du);
  cudaFree(dv);
  free(u);
  free(v);
  return bad != 0;
}
