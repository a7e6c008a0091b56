// minicuda-run: -rdc=true
// Recursive reduction without device-side synchronisation (the book's nestedReduceNosync
// shape, which builds with CUDA 12 and 13): each block folds its half onto the other half
// in place and its first thread launches the next fold on the half, one block each; the
// children finish before the parent grid is complete, so the host's cudaDeviceSynchronize
// waits for them all, then it sums the blocks' results.
// Data: 4 blocks of 32 ints, in[i] = (3 * i) % 10; by hand the block sums are (any ten
// consecutive values are 0..9 once, 45; so 32 values are 135 plus the last two, i = 32b+30, 32b+31):
// b0: 135 + 0 + 3 = 138, b1: 135 + 6 + 9 = 150, b2: 135 + 2 + 5 = 142, b3: 135 + 8 + 1 = 144; 574 in all.
#include <cstdio>
#include <cuda_runtime.h>

__global__ void foldNoSync(int *data, int *out, unsigned int width) {
    unsigned int t = threadIdx.x;
    int *mine = data + blockIdx.x * blockDim.x;
    if (width == 2 && t == 0) {
        out[blockIdx.x] = mine[0] + mine[1];
        return;
    }
    unsigned int half = width >> 1;
    if (half > 1 && t < half) mine[t] += mine[t + half];
    __syncthreads();
    if (t == 0) {
        foldNoSync<<<1, half>>>(mine, &out[blockIdx.x], half);
        if (cudaGetLastError() != cudaSuccess) printf("launch failed in block %d\n", blockIdx.x);
    }
}

int main() {
    const int blocks = 4, width = 32, n = blocks * width;
    int host[n], sums[blocks];
    for (int i = 0; i < n; i++) host[i] = (3 * i) % 10;
    int *d_in, *d_out;
    cudaMalloc(&d_in, n * sizeof(int));
    cudaMalloc(&d_out, blocks * sizeof(int));
    cudaMemcpy(d_in, host, n * sizeof(int), cudaMemcpyHostToDevice);
    foldNoSync<<<blocks, width>>>(d_in, d_out, width);
    cudaError_t err = cudaDeviceSynchronize();
    printf("synchronize: %s\n", cudaGetErrorName(err));
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
