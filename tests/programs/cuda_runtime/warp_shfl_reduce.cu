// Warp-level reductions with __shfl_down_sync and __shfl_xor_sync (the book's chapter-5
// reduceShfl shape, CUDA 9's masked intrinsics): each warp sums its 32 values, lane 0
// writes the warp's sum, shared memory combines the warps of a block, and an atomicAdd
// combines the blocks.  Input x[i] = i % 100 over n = 3000 elements.
#include <cstdio>
#include <cuda_runtime.h>

__inline__ __device__ int warpSumDown(int v) {
    for (int offset = warpSize / 2; offset > 0; offset /= 2) v += __shfl_down_sync(0xffffffff, v, offset);
    return v;
}

__inline__ __device__ int warpSumXor(int v) {
    for (int mask = 16; mask > 0; mask >>= 1) v += __shfl_xor_sync(0xffffffff, v, mask);
    return v;
}

__global__ void reduce(const int *x, int n, int *total, int *warpSums) {
    __shared__ int partial[32];
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int lane = threadIdx.x % warpSize, warp = threadIdx.x / warpSize;
    int v = i < n ? x[i] : 0;
    int s = warpSumDown(v);
    if (lane == 0) partial[warp] = s;
    __syncthreads();
    if (warp == 0) {
        int w = lane < blockDim.x / warpSize ? partial[lane] : 0;
        w = warpSumXor(w);
        if (lane == 0) atomicAdd(total, w);
    }
    if (blockIdx.x == 0 && lane == 0) warpSums[warp] = s;
}

__global__ void everyLaneHasTheSum(int *out) {
    int v = warpSumXor(threadIdx.x);
    out[threadIdx.x] = v;
}

int main() {
    const int n = 3000, block = 256;
    int *x, *total, *warpSums, *lanes;
    cudaMallocManaged(&x, n * sizeof(int));
    cudaMallocManaged(&total, sizeof(int));
    cudaMallocManaged(&warpSums, 8 * sizeof(int));
    cudaMallocManaged(&lanes, 32 * sizeof(int));
    for (int i = 0; i < n; i++) x[i] = i % 100;
    *total = 0;
    reduce<<<(n + block - 1) / block, block>>>(x, n, total, warpSums);
    everyLaneHasTheSum<<<1, 32>>>(lanes);
    cudaDeviceSynchronize();
    long long expect = 0;
    for (int i = 0; i < n; i++) expect += x[i];
    printf("total %d (expected %lld)\n", *total, expect);
    printf("block 0's warp sums:");
    for (int w = 0; w < 8; w++) printf(" %d", warpSums[w]);
    printf("\nlane 0 and lane 31 after the butterfly: %d %d\n", lanes[0], lanes[31]);
    cudaFree(x); cudaFree(total); cudaFree(warpSums); cudaFree(lanes);
    return 0;
}
