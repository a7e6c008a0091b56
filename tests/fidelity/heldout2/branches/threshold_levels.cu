// Held-out kernel threshold_levels: multi-level thresholding of an 8-bit grey image (image
// processing exercises): nested ifs on the pixel's value pick one of four levels, a 2D bounds
// check first.  A 40 x 24 image.
// Launch: grid 5 x 3, block 8 x 8.
#include <cstdio>
#include <cstdlib>

__global__ void threshold_levels(const unsigned char *img, unsigned char *out, int w, int h, int lo, int hi) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x < w && y < h) {
    int p = img[y * w + x];
    unsigned char level;
    if (p < hi) {
      if (p < lo) level = 0;
      else level = 85;
    } else {
      if (p < 2 * hi - lo) level = 170;
      else level = 255;
    }
    out[y * w + x] = level;
  }
}

int main() {
  const int w = 40, h = 24, n = w * h, lo = 60, hi = 120;
  unsigned char img[n], out[n];
  for (int i = 0; i < n; i++) img[i] = (unsigned char)((i * 53 + (i / w) * 7) % 256);
  unsigned char *di, *dout;
  cudaMalloc(&di, n);
  cudaMalloc(&dout, n);
  cudaMemcpy(di, img, n, cudaMemcpyHostToDevice);
  threshold_levels<<<dim3(5, 3), dim3(8, 8)>>>(di, dout, w, h, lo, hi);
  cudaMemcpy(out, dout, n, cudaMemcpyDeviceToHost);
  int bad = 0;
  for (int i = 0; i < n; i++) {
    int p = img[i], r = p < lo ? 0 : p < hi ? 85 : p < 2 * hi - lo ? 170 : 255;
    bad += out[i] != r;
  }
  printf("threshold_levels %s\n", bad == 0 ? "OK" : "FAIL");
  cudaFree(di);
  cudaFree(dout);
  return bad != 0;
}
