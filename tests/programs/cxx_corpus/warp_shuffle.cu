// Warp-level primitives: a shuffle-down sum, a butterfly max with __shfl_xor_sync, a
// broadcast with __shfl_sync, and __ballot_sync/__popc vote counts.
#include <stdio.h>

#define FULL_MASK 0xffffffffu

__inline__ __device__ int warpReduceSum(int val)
{
    for (int offset = warpSize / 2; offset > 0; offset /= 2) val += __shfl_down_sync(FULL_MASK, val, offset);
    return val;
}

__inline__ __device__ int warpAllMax(int val)
{
    for (int mask = 16; mask > 0; mask >>= 1) val = max(val, __shfl_xor_sync(FULL_MASK, val, mask));
    return val;
}

__global__ void blockSums(const int *in, int *sums, int *maxes, int *firsts, int *evens, int n)
{
    static __shared__ int shared[32];
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int lane = threadIdx.x % warpSize;
    int wid = threadIdx.x / warpSize;
    int v = i < n ? in[i] : 0;
    int warpSum = warpReduceSum(v);
    int m = warpAllMax(v);
    int first = __shfl_sync(FULL_MASK, v, 0);
    unsigned int ballot = __ballot_sync(FULL_MASK, (v & 1) == 0);
    if (lane == 0) shared[wid] = warpSum;
    __syncthreads();
    if (wid == 0) {
        int total = lane < blockDim.x / warpSize ? shared[lane] : 0;
        total = warpReduceSum(total);
        if (lane == 0) sums[blockIdx.x] = total;
    }
    if (lane == 0) {
        int w = blockIdx.x * (blockDim.x / warpSize) + wid;
        maxes[w] = m;
        firsts[w] = first;
        evens[w] = __popc(ballot);
    }
}

int main(void)
{
    const int n = 1024, threads = 256, blocks = n / threads, warps = n / 32;
    int h[n];
    for (int i = 0; i < n; i++) h[i] = (i * 131 + 7) % 1009;
    int *d_in, *d_sums, *d_max, *d_first, *d_even;
    cudaMalloc(&d_in, sizeof(h));
    cudaMalloc(&d_sums, blocks * sizeof(int));
    cudaMalloc(&d_max, warps * sizeof(int));
    cudaMalloc(&d_first, warps * sizeof(int));
    cudaMalloc(&d_even, warps * sizeof(int));
    cudaMemcpy(d_in, h, sizeof(h), cudaMemcpyHostToDevice);
    blockSums<<<blocks, threads>>>(d_in, d_sums, d_max, d_first, d_even, n);
    int sums[blocks], maxes[warps], firsts[warps], evens[warps];
    cudaMemcpy(sums, d_sums, sizeof(sums), cudaMemcpyDeviceToHost);
    cudaMemcpy(maxes, d_max, sizeof(maxes), cudaMemcpyDeviceToHost);
    cudaMemcpy(firsts, d_first, sizeof(firsts), cudaMemcpyDeviceToHost);
    cudaMemcpy(evens, d_even, sizeof(evens), cudaMemcpyDeviceToHost);
    int total = 0, cpu = 0;
    for (int b = 0; b < blocks; b++) total += sums[b];
    for (int i = 0; i < n; i++) cpu += h[i];
    printf("block sums: %d %d %d %d (total %d, cpu %d)\n", sums[0], sums[1], sums[2], sums[3], total, cpu);
    printf("warp 0: max %d first %d evens %d\n", maxes[0], firsts[0], evens[0]);
    printf("warp 31: max %d first %d evens %d\n", maxes[31], firsts[31], evens[31]);
    cudaFree(d_in);
    cudaFree(d_sums);
    cudaFree(d_max);
    cudaFree(d_first);
    cudaFree(d_even);
    return 0;
}
