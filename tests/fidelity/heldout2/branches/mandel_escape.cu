// Held-out kernel mandel_escape: the Mandelbrot set's escape-time loop (a staple of course
// exercises), in Q12 fixed point so the host's reference is exact: each pixel iterates
// z = z^2 + c until |z|^2 > 4 or 48 iterations, a data-dependent trip count per thread.
// A 48 x 30 image over [-2, 1] x [-1, 1].
// Launch: grid 3 x 2, block 16 x 16 (the last row of blocks partly past the image).
#include <cstdio>
#include <cstdlib>

#define MAXIT 48
#define ONE 4096

__global__ void mandel_escape(int *iters, int w, int h) {
  int px = blockIdx.x * blockDim.x + threadIdx.x;
  int py = blockIdx.y * blockDim.y + threadIdx.y;
  if (px >= w || py >= h) return;
  int cx = -2 * ONE + px * 3 * ONE / w;
  int cy = -ONE + py * 2 * ONE / h;
  int zx = 0, zy = 0, it = 0;
  while (it < MAXIT) {
    int xx = zx * zx / ONE, yy = zy * zy / ONE;
    if (xx + yy > 4 * ONE) break;
    zy = 2 * zx * zy / ONE + cy;
    zx = xx - yy + cx;
    it++;
  }
  iters[py * w + px] = it;
}

int main() {
  const int w = 48, h = 30, n = w * h;
  int got[n];
  int *d;
  cudaMalloc(&d, sizeof(got));
  mandel_escape<<<dim3(3, 2), dim3(16, 16)>>>(d, w, h);
  cudaMemcpy(got, d, sizeof(got), cudaMemcpyDeviceToHost);
  int bad = 0;
  for (int py = 0; py < h; py++)
    for (int px = 0; px < w; px++) {
      int cx = -2 * ONE + px * 3 * ONE / w, cy = -ONE + py * 2 * ONE / h;
      int zx = 0, zy = 0, it = 0;
      while (it < MAXIT) {
        int xx = zx * zx / ONE, yy = zy * zy / ONE;
        if (xx + yy > 4 * ONE) break;
        zy = 2 * zx * zy / ONE + cy;
        zx = xx - yy + cx;
        it++;
      }
      bad += got[py * w + px] != it;
    }
  printf("mandel_escape %s\n", bad == 0 ? "OK" : "FAIL");
  cudaFree(d);
  return bad != 0;
}
