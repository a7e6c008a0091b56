// Exclusive prefix sum of several blocks: a work-efficient (Blelloch) scan per block in
// shared memory, a scan of the block sums, and a uniform add.
#include <stdio.h>
#include <stdlib.h>

#define BLOCK 256   // threads per block; each block scans 2*BLOCK elements

__global__ void scanBlocks(const int *in, int *out, int *blockSums, int n)
{
    __shared__ int temp[2 * BLOCK];
    int tid = threadIdx.x;
    int base = blockIdx.x * 2 * BLOCK;
    temp[2 * tid] = base + 2 * tid < n ? in[base + 2 * tid] : 0;
    temp[2 * tid + 1] = base + 2 * tid + 1 < n ? in[base + 2 * tid + 1] : 0;

    int offset = 1;
    for (int d = BLOCK; d > 0; d >>= 1) {
        __syncthreads();
        if (tid < d) {
            int ai = offset * (2 * tid + 1) - 1;
            int bi = offset * (2 * tid + 2) - 1;
            temp[bi] += temp[ai];
        }
        offset *= 2;
    }
    if (tid == 0) {
        if (blockSums) blockSums[blockIdx.x] = temp[2 * BLOCK - 1];
        temp[2 * BLOCK - 1] = 0;
    }
    for (int d = 1; d < 2 * BLOCK; d *= 2) {
        offset >>= 1;
        __syncthreads();
        if (tid < d) {
            int ai = offset * (2 * tid + 1) - 1;
            int bi = offset * (2 * tid + 2) - 1;
            int t = temp[ai];
            temp[ai] = temp[bi];
            temp[bi] += t;
        }
    }
    __syncthreads();
    if (base + 2 * tid < n) out[base + 2 * tid] = temp[2 * tid];
    if (base + 2 * tid + 1 < n) out[base + 2 * tid + 1] = temp[2 * tid + 1];
}

__global__ void addOffsets(int *data, const int *offsets, int n)
{
    int i = blockIdx.x * 2 * BLOCK + threadIdx.x;
    int add = offsets[blockIdx.x];
    if (i < n) data[i] += add;
    if (i + BLOCK < n) data[i + BLOCK] += add;
}

int main(void)
{
    const int n = 3000;
    const int blocks = (n + 2 * BLOCK - 1) / (2 * BLOCK);
    int *h = (int *)malloc(n * sizeof(int));
    for (int i = 0; i < n; i++) h[i] = (i * 7 + 3) % 10;

    int *d_in, *d_out, *d_sums, *d_sumsScanned;
    cudaMalloc(&d_in, n * sizeof(int));
    cudaMalloc(&d_out, n * sizeof(int));
    cudaMalloc(&d_sums, blocks * sizeof(int));
    cudaMalloc(&d_sumsScanned, blocks * sizeof(int));
    cudaMemcpy(d_in, h, n * sizeof(int), cudaMemcpyHostToDevice);

    scanBlocks<<<blocks, BLOCK>>>(d_in, d_out, d_sums, n);
    scanBlocks<<<1, BLOCK>>>(d_sums, d_sumsScanned, NULL, blocks);
    addOffsets<<<blocks, BLOCK>>>(d_out, d_sumsScanned, n);

    int *res = (int *)malloc(n * sizeof(int));
    cudaMemcpy(res, d_out, n * sizeof(int), cudaMemcpyDeviceToHost);
    int running = 0, errors = 0;
    for (int i = 0; i < n; i++) {
        if (res[i] != running) errors++;
        running += h[i];
    }
    printf("blocks %d, out[1]=%d out[512]=%d out[2999]=%d total=%d\n", blocks, res[1], res[512], res[n - 1], running);
    printf("scan %s (%d errors)\n", errors ? "FAILED" : "PASSED", errors);
    cudaFree(d_in);
    cudaFree(d_out);
    cudaFree(d_sums);
    cudaFree(d_sumsScanned);
    free(h);
    free(res);
    return 0;
}
