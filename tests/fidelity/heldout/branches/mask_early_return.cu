// Held-out kernel mask_early_return: two early returns, the usual bounds guard and a second
// one on a mask read from memory (threads of masked-out pixels leave before any work), then
// a brightness adjustment with a clamp.  One launch: grid 3, block 64, 176 pixels.
#include <cstdio>

__global__ void mask_early_return(const unsigned char *mask, const int *pixel, int *out, int n, int gain) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  if (mask[i] == 0) return;
  int v = pixel[i] * gain / 4;
  out[i] = v > 255 ? 255 : v;
}

int main() {
  const int n = 176;
  unsigned char h_mask[n];
  int h_pix[n], h_out[n];
  for (int i = 0; i < n; i++) {
    h_mask[i] = (i % 5 == 1 || i % 7 == 3) ? 0 : 1;
    h_pix[i] = (i * 29) % 256;
    h_out[i] = -1;
  }
  unsigned char *d_mask;
  int *d_pix, *d_out;
  cudaMalloc(&d_mask, n);
  cudaMalloc(&d_pix, n * sizeof(int));
  cudaMalloc(&d_out, n * sizeof(int));
  cudaMemcpy(d_mask, h_mask, n, cudaMemcpyHostToDevice);
  cudaMemcpy(d_pix, h_pix, n * sizeof(int), cudaMemcpyHostToDevice);
  cudaMemcpy(d_out, h_out, n * sizeof(int), cudaMemcpyHostToDevice);
  mask_early_return<<<3, 64>>>(d_mask, d_pix, d_out, n, 6);
  cudaMemcpy(h_out, d_out, n * sizeof(int), cudaMemcpyDeviceToHost);
  int errs = 0;
  for (int i = 0; i < n; i++) {
    int want = -1;
    if (h_mask[i]) {
      want = h_pix[i] * 6 / 4;
      if (want > 255) want = 255;
    }
    if (h_out[i] != want) errs++;
  }
  if (errs == 0) printf("mask_early_return OK\n");
  else printf("mask_early_return FAIL %d\n", errs);
  cudaFree(d_mask); cudaFree(d_pix); cudaFree(d_out);
  return errs ? 1 : 0;
}
