// Held-out kernel fir_unrolled: a 7-tap FIR filter whose tap loop is fully unrolled with
// #pragma unroll (the programming guide's example of the pragma), taps in registers, the
// signal read with a bounds test per tap.  One launch: grid 2, block 128.
#include <cstdio>

#define TAPS 7

__global__ void fir_unrolled(const int *signal, int *filtered, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  const int taps[TAPS] = {1, 2, 3, 4, 3, 2, 1};
  int sum = 0;
#pragma unroll
  for (int k = 0; k < TAPS; k++) {
    int j = i - k;
    if (j >= 0) sum += taps[k] * signal[j];
  }
  filtered[i] = sum;
}

int main() {
  const int n = 256;
  int h_sig[n], h_out[n];
  const int taps[TAPS] = {1, 2, 3, 4, 3, 2, 1};
  for (int i = 0; i < n; i++) h_sig[i] = (i * 11) % 13 - 6;
  int *d_sig, *d_out;
  cudaMalloc(&d_sig, n * sizeof(int));
  cudaMalloc(&d_out, n * sizeof(int));
  cudaMemcpy(d_sig, h_sig, n * sizeof(int), cudaMemcpyHostToDevice);
  fir_unrolled<<<n / 128, 128>>>(d_sig, d_out, n);
  cudaMemcpy(h_out, d_out, n * sizeof(int), cudaMemcpyDeviceToHost);
  int wrong = 0;
  for (int i = 0; i < n; i++) {
    int s = 0;
    for (int k = 0; k < TAPS; k++)
      if (i - k >= 0) s += taps[k] * h_sig[i - k];
    if (s != h_out[i]) wrong++;
  }
  printf(wrong ? "fir_unrolled FAIL\n" : "fir_unrolled OK\n");
  cudaFree(d_sig);
  cudaFree(d_out);
  return wrong ? 1 : 0;
}
