// Held-out kernel segment_helpers: __device__ helper functions called from the kernel (a
// clamp, a squared distance and a helper with its own branch choosing the nearer of two
// centres), the decomposition the programming guide recommends.  One launch: grid 2, block 128.
#include <cstdio>

__device__ int clamp_int(int v, int lo, int hi) {
  if (v < lo) return lo;
  if (v > hi) return hi;
  return v;
}

__device__ int dist2(int ax, int ay, int bx, int by) {
  int dx = ax - bx, dy = ay - by;
  return dx * dx + dy * dy;
}

__device__ int nearest(int x, int y) {
  int d0 = dist2(x, y, 10, 10), d1 = dist2(x, y, 40, 25);
  if (d0 <= d1) return 0;
  return 1;
}

__global__ void segment_helpers(const int *px, const int *py, int *seg) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int x = clamp_int(px[i], 0, 50), y = clamp_int(py[i], 0, 35);
  seg[i] = nearest(x, y) * 10000 + x * 100 + y;
}

int main() {
  const int n = 256;
  int hx[n], hy[n], hs[n];
  for (int i = 0; i < n; i++) {
    hx[i] = (i * 19) % 71 - 10;
    hy[i] = (i * 23) % 53 - 8;
  }
  int *dx, *dy, *ds;
  cudaMalloc(&dx, sizeof(hx));
  cudaMalloc(&dy, sizeof(hy));
  cudaMalloc(&ds, sizeof(hs));
  cudaMemcpy(dx, hx, sizeof(hx), cudaMemcpyHostToDevice);
  cudaMemcpy(dy, hy, sizeof(hy), cudaMemcpyHostToDevice);
  segment_helpers<<<2, 128>>>(dx, dy, ds);
  cudaMemcpy(hs, ds, sizeof(hs), cudaMemcpyDeviceToHost);
  int bad = 0;
  for (int i = 0; i < n; i++) {
    int x = hx[i] < 0 ? 0 : (hx[i] > 50 ? 50 : hx[i]);
    int y = hy[i] < 0 ? 0 : (hy[i] > 35 ? 35 : hy[i]);
    int d0 = (x - 10) * (x - 10) + (y - 10) * (y - 10), d1 = (x - 40) * (x - 40) + (y - 25) * (y - 25);
    int want = (d0 <= d1 ? 0 : 1) * 10000 + x * 100 + y;
    if (hs[i] != want) bad++;
  }
  printf("segment_helpers %s\n", bad ? "FAIL" : "OK");
  cudaFree(dx); cudaFree(dy); cudaFree(ds);
  return bad ? 1 : 0;
}
