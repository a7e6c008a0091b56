// Held-out kernel kmeans_assign: the assignment step of k-means (course exercises on
// clustering) built from __device__ helpers: a squared distance, a nearest-centroid search
// over 5 centroids with a strict `<` (the first of equals wins), and a helper that counts the
// points per cluster with atomicAdd.  256 points in 2D, integer coordinates.
// Launch: grid 8, block 32.
#include <cstdio>
#include <cstdlib>

#define K 5

__device__ int dist2(int ax, int ay, int bx, int by) {
  int dx = ax - bx, dy = ay - by;
  return dx * dx + dy * dy;
}

__device__ int nearest(int x, int y, const int *cx, const int *cy) {
  int best = 0, bestd = dist2(x, y, cx[0], cy[0]);
  for (int k = 1; k < K; k++) {
    int d = dist2(x, y, cx[k], cy[k]);
    if (d < bestd) {
      bestd = d;
      best = k;
    }
  }
  return best;
}

__device__ void count_member(int *counts, int k) { atomicAdd(&counts[k], 1); }

__global__ void kmeans_assign(const int *px, const int *py, const int *cx, const int *cy, int *label, int *counts,
                              int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    int k = nearest(px[i], py[i], cx, cy);
    label[i] = k;
    count_member(counts, k);
  }
}

int main() {
  const int n = 256;
  int px[n], py[n], label[n], counts[K], cx[K] = {10, 80, 45, 20, 70}, cy[K] = {10, 15, 50, 85, 75};
  for (int i = 0; i < n; i++) {
    px[i] = (i * 37) % 100;
    py[i] = (i * 61 + 17) % 100;
  }
  int *dpx, *dpy, *dcx, *dcy, *dl, *dc;
  cudaMalloc(&dpx, sizeof(px));
  cudaMalloc(&dpy, sizeof(py));
  cudaMalloc(&dcx, sizeof(cx));
  cudaMalloc(&dcy, sizeof(cy));
  cudaMalloc(&dl, sizeof(label));
  cudaMalloc(&dc, sizeof(counts));
  cudaMemcpy(dpx, px, sizeof(px), cudaMemcpyHostToDevice);
  cudaMemcpy(dpy, py, sizeof(py), cudaMemcpyHostToDevice);
  cudaMemcpy(dcx, cx, sizeof(cx), cudaMemcpyHostToDevice);
  cudaMemcpy(dcy, cy, sizeof(cy), cudaMemcpyHostToDevice);
  cudaMemset(dc, 0, sizeof(counts));
  kmeans_assign<<<8, 32>>>(dpx, dpy, dcx, dcy, dl, dc, n);
  cudaMemcpy(label, dl, sizeof(label), cudaMemcpyDeviceToHost);
  cudaMemcpy(counts, dc, sizeof(counts), cudaMemcpyDeviceToHost);
  int bad = 0, ref[K] = {0};
  for (int i = 0; i < n; i++) {
    int best = 0, bestd = -1;
    for (int k = 0; k < K; k++) {
      int d = (px[i] - cx[k]) * (px[i] - cx[k]) + (py[i] - cy[k]) * (py[i] - cy[k]);
      if (bestd < 0 || d < bestd) {
        bestd = d;
        best = k;
      }
    }
    ref[best]++;
    bad += label[i] != best;
  }
  for (int k = 0; k < K; k++) bad += counts[k] != ref[k];
  printf("kmeans_assign %s\n", bad == 0 ? "OK" : "FAIL");
  cudaFree(dpx);
  cudaFree(dpy);
  cudaFree(dcx);
  cudaFree(dcy);
  cudaFree(dl);
  cudaFree(dc);
  return bad != 0;
}
