// initcheck across more blocks than a JIT worker takes at a time: the reports of blocks
// run side by side come out in block order, as one worker (or the interpreter) makes them.
// Half of a is set; every 97th thread reads a, those of the second half unset (84 of them).
// expect: initcheck errors=84
#include <cstdio>

__global__ void spread(const int *a, int *b, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n && i % 97 == 0) b[i] = a[i] + 1;
  else if (i < n) b[i] = 0;
}

int main() {
  int n = 1 << 14;
  int *a, *b;
  cudaMalloc(&a, n * sizeof(int));
  cudaMalloc(&b, n * sizeof(int));
  cudaMemset(a, 0, n * sizeof(int) / 2);
  spread<<<n / 128, 128>>>(a, b, n);
  cudaDeviceSynchronize();
  printf("done\n");
  cudaFree(a);
  cudaFree(b);
  return 0;
}
