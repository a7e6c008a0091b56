// a kernel with a short divergent branch (predicated or kept by the thresholds) and a
// longer one; BLOCK (a -D macro) sets the block size
#include <cstdio>
#include "branchy.h"
__global__ void branchy(int *out) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int v = out[i];
    if (i % 2 == 0) { v = (v ^ 3) * SCALE + 1; v = v ^ 5; v = v + i; v = v * 7; v = (v - 2) ^ 1; }
    if (i % 4 == 1) { v += i * i; v -= 3; v = v * v + 2; v ^= 9; v += i; v = v * 11; v -= 1; v ^= 6; }
    out[i] = v;
}
int main(int argc, char **argv) {
    int blocks = argc > 1 ? atoi(argv[1]) : 1, n = blocks * BLOCK;
    int *d;
    cudaMalloc(&d, n * sizeof(int));
    cudaMemset(d, 0, n * sizeof(int));
    branchy<<<blocks, BLOCK>>>(d);
    int first = 0;
    cudaMemcpy(&first, d, sizeof(int), cudaMemcpyDeviceToHost);
    printf("%d\n", first);
    return 0;
}
