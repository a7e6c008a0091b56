// minicuda-run: -rdc=true
// The book's nestedReduce2 shape: only block 0's first thread launches the next level, a
// grid of the same number of blocks with half the threads each, the blocks' stride given
// as an argument, and no device-side synchronisation; the host sums the blocks' results.
// Data: 8 blocks of 16 ints, in[i] = i % 5 + 1 (1..5).  Level by level each block adds
// its upper half onto its lower half (16 -> 8 -> 4 -> 2), and at width 2 writes
// mine[0] + mine[1].  By hand, block b's sum is that of i = 16b .. 16b+15 of (i % 5 + 1):
// three full cycles (45) plus the last value, i = 16b + 15: (16b + 15) % 5 + 1 = (b % 5) + 1:
// 46, 47, 48, 49, 50, 46, 47, 48; total 381.
#include <cstdio>
#include <cuda_runtime.h>

__global__ void strideReduce(int *data, int *out, int stride, int const width) {
    int *mine = data + blockIdx.x * stride;
    if (width == 2 && threadIdx.x == 0) {
        out[blockIdx.x] = mine[0] + mine[1];
        return;
    }
    int half = width >> 1;
    if (threadIdx.x < half) mine[threadIdx.x] += mine[threadIdx.x + half];
    __syncthreads();
    if (threadIdx.x == 0 && blockIdx.x == 0) {
        strideReduce<<<gridDim.x, half / 2 > 0 ? half / 2 : 1>>>(data, out, stride, half);
    }
}

int main() {
    const int blocks = 8, width = 16, n = blocks * width;
    int host[n], sums[blocks];
    for (int i = 0; i < n; i++) host[i] = i % 5 + 1;
    int *d_in, *d_out;
    cudaMalloc(&d_in, n * sizeof(int));
    cudaMalloc(&d_out, blocks * sizeof(int));
    cudaMemcpy(d_in, host, n * sizeof(int), cudaMemcpyHostToDevice);
    strideReduce<<<blocks, width / 2>>>(d_in, d_out, width, width);
    cudaDeviceSynchronize();
    cudaMemcpy(sums, d_out, blocks * sizeof(int), cudaMemcpyDeviceToHost);
    int total = 0, expect = 0;
    for (int b = 0; b < blocks; b++) {
        printf("block %d: %d\n", b, sums[b]);
        total += sums[b];
    }
    for (int i = 0; i < n; i++) expect += host[i];
    printf("gpu sum %d, cpu sum %d: %s\n", total, expect, total == expect ? "Test PASSED" : "Test FAILED");
    return 0;
}
