// Held-out kernel clamp_ternary_rgb: YUV to RGB conversion of video-processing exercises in
// integer BT.601 form, each channel clamped to 0..255 with ternaries, and a ternary on the
// pixel's parity choosing the chroma pair (4:2:2 sampling).  300 pixels.
// Launch: grid 5, block 64 (the last block partly idle).
#include <cstdio>
#include <cstdlib>

__device__ __forceinline__ int clamp255(int v) { return v < 0 ? 0 : v > 255 ? 255 : v; }

__global__ void clamp_ternary_rgb(const unsigned char *yuyv, unsigned char *rgb, int pixels) {
  int p = blockIdx.x * blockDim.x + threadIdx.x;
  if (p >= pixels) return;
  int pair = p / 2;
  int y = yuyv[4 * pair + ((p & 1) ? 2 : 0)];
  int u = yuyv[4 * pair + 1] - 128, v = yuyv[4 * pair + 3] - 128;
  int c = y - 16 < 0 ? 0 : y - 16;
  int r = (298 * c + 409 * v + 128) >> 8;
  int g = (298 * c - 100 * u - 208 * v + 128) >> 8;
  int b = (298 * c + 516 * u + 128) >> 8;
  rgb[3 * p] = clamp255(r);
  rgb[3 * p + 1] = clamp255(g);
  rgb[3 * p + 2] = clamp255(b);
}

static int clamp_host(int v) {
  if (v < 0) return 0;
  if (v > 255) return 255;
  return v;
}

int main() {
  const int pixels = 300;
  unsigned char yuyv[2 * pixels], rgb[3 * pixels];
  for (int i = 0; i < 2 * pixels; i++) yuyv[i] = (unsigned char)((i * 97 + 31) % 256);
  unsigned char *din, *dout;
  cudaMalloc(&din, sizeof(yuyv));
  cudaMalloc(&dout, sizeof(rgb));
  cudaMemcpy(din, yuyv, sizeof(yuyv), cudaMemcpyHostToDevice);
  clamp_ternary_rgb<<<5, 64>>>(din, dout, pixels);
  cudaMemcpy(rgb, dout, sizeof(rgb), cudaMemcpyDeviceToHost);
  int bad = 0;
  for (int p = 0; p < pixels; p++) {
    int y = yuyv[4 * (p / 2) + (p % 2) * 2], u = yuyv[4 * (p / 2) + 1] - 128, v = yuyv[4 * (p / 2) + 3] - 128;
    int c = y > 16 ? y - 16 : 0;
    bad += rgb[3 * p] != clamp_host((298 * c + 409 * v + 128) >> 8);
    bad += rgb[3 * p + 1] != clamp_host((298 * c - 100 * u - 208 * v + 128) >> 8);
    bad += rgb[3 * p + 2] != clamp_host((298 * c + 516 * u + 128) >> 8);
  }
  printf("clamp_ternary_rgb %s\n", bad == 0 ? "OK" : "FAIL");
  cudaFree(din);
  cudaFree(dout);
  return bad != 0;
}
