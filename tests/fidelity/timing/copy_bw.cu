// Timing: cudaMemcpy of 64 MiB from pageable host memory, host to device and back, timed with
// CUDA events (the PCIe bandwidth the model charges copies with).
#include "common.h"

int main(int argc, char **argv) {
  size_t bytes = (size_t)(argc > 1 ? atoi(argv[1]) : 64) << 20;
  char *h = (char *)malloc(bytes), *d;
  for (size_t i = 0; i < bytes; i++) h[i] = (char)i;
  cudaMalloc(&d, bytes);
  cudaEvent_t start, stop;
  cudaEventCreate(&start); cudaEventCreate(&stop);
  float ms[2];
  for (int dir = 0; dir < 2; dir++) {
    cudaMemcpy(d, h, bytes, cudaMemcpyHostToDevice);   // warm up
    cudaEventRecord(start);
    if (dir == 0) cudaMemcpy(d, h, bytes, cudaMemcpyHostToDevice);
    else cudaMemcpy(h, d, bytes, cudaMemcpyDeviceToHost);
    cudaEventRecord(stop);
    cudaEventSynchronize(stop);
    cudaEventElapsedTime(&ms[dir], start, stop);
  }
  printf("copy_bw %zu bytes: h2d %.3f ms (%.2f GB/s), d2h %.3f ms (%.2f GB/s)\n", bytes, ms[0],
         bytes / ms[0] / 1e6, ms[1], bytes / ms[1] / 1e6);
  return 0;
}
