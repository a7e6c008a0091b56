// minicuda-run: -rdc=true -arch=sm_80
// gpu-record: none, device-side cudaDeviceSynchronize() was removed in CUDA 12 (nvcc 13 rejects it);
// the expected output follows CUDA 11's semantics, worked out by hand.
// Recursive reduction (the book's nestedReduce shape): each block folds its half onto the
// other half in place, then its first thread launches the same kernel on the half with one
// block and waits for it with a device-side cudaDeviceSynchronize().
// Data: 8 blocks of 16 ints, in[i] = i % 7; block b's sum is written to out[b].
// Block sums by hand (i = 16b .. 16b+15: two full cycles of i % 7, 42, plus the last two
// values): 42+0+1 = 43, 42+2+3 = 47, 42+4+5 = 51, 42+6+0 = 48, 42+1+2 = 45, 42+3+4 = 49,
// 42+5+6 = 53, 42+0+1 = 43; total 379 (18 cycles of 21 over 0..125, then 0 + 1).
#include <cstdio>
#include <cuda_runtime.h>

__global__ void foldReduce(int *data, int *out, unsigned int width) {
    unsigned int t = threadIdx.x;
    int *mine = data + blockIdx.x * blockDim.x;
    int *result = &out[blockIdx.x];
    if (width == 2 && t == 0) {
        out[blockIdx.x] = mine[0] + mine[1];
        return;
    }
    unsigned int half = width >> 1;
    if (half > 1 && t < half) mine[t] += mine[t + half];
    __syncthreads();
    if (t == 0) {
        foldReduce<<<1, half>>>(mine, result, half);
        cudaDeviceSynchronize();
    }
    __syncthreads();
}

int main() {
    const int blocks = 8, width = 16, n = blocks * width;
    int host[n], sums[blocks];
    for (int i = 0; i < n; i++) host[i] = i % 7;
    int *d_in, *d_out;
    cudaMalloc(&d_in, n * sizeof(int));
    cudaMalloc(&d_out, blocks * sizeof(int));
    cudaMemcpy(d_in, host, n * sizeof(int), cudaMemcpyHostToDevice);
    foldReduce<<<blocks, width>>>(d_in, d_out, width);
    cudaDeviceSynchronize();
    cudaMemcpy(sums, d_out, blocks * sizeof(int), cudaMemcpyDeviceToHost);
    int total = 0, expect = 0;
    for (int b = 0; b < blocks; b++) {
        printf("block %d: %d\n", b, sums[b]);
        total += sums[b];
    }
    for (int i = 0; i < n; i++) expect += host[i];
    printf("gpu sum %d, cpu sum %d: %s\n", total, expect, total == expect ? "Test PASSED" : "Test FAILED");
    cudaFree(d_in);
    cudaFree(d_out);
    return 0;
}
