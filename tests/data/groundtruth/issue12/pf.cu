#include <stdio.h>
__global__ void k() { for (int i = 0; i < 64; i++) printf("%d %d\n", blockIdx.x * blockDim.x + threadIdx.x, i); }
int main() { k<<<256, 1024>>>(); cudaDeviceSynchronize(); return 0; }
