// A user-style program checked on an H100 when first written (tests/data/groundtruth/cuda).
#include <cooperative_groups.h>
#include <cstdio>
#include <vector>
#include <numeric>
namespace cg = cooperative_groups;

template <int TILE>
__device__ int tileSum(cg::thread_block_tile<TILE> g, int v) {
    for (int off = g.size() / 2; off > 0; off /= 2)
        v += g.shfl_down(v, off);
    return v;
}

__global__ void sumKernel(const int4 *in, int n4, int *out) {
    cg::thread_block block = cg::this_thread_block();
    auto tile = cg::tiled_partition<32>(block);
    int idx = blockIdx.x * blockDim.x + threadIdx.x;
    int v = 0;
    if (idx < n4) {
        int4 q = in[idx];
        v = q.x + q.y + q.z + q.w;
    }
    int s = tileSum<32>(tile, v);
    if (tile.thread_rank() == 0) atomicAdd(out, s);
    block.sync();
    if (block.thread_rank() == 0 && blockIdx.x == 0)
        printf("block dim %d, tiles per block %d\n", (int)block.size(), (int)tile.meta_group_size());
}

int main() {
    const int N = 4096;
    std::vector<int> h(N);
    std::iota(h.begin(), h.end(), 1);
    int *d_in, *d_out;
    cudaMalloc(&d_in, N * sizeof(int));
    cudaMalloc(&d_out, sizeof(int));
    cudaMemcpy(d_in, h.data(), N * sizeof(int), cudaMemcpyHostToDevice);
    cudaMemset(d_out, 0, sizeof(int));
    int n4 = N / 4;
    sumKernel<<<(n4 + 127) / 128, 128>>>(reinterpret_cast<int4 *>(d_in), n4, d_out);
    int result = 0;
    cudaMemcpy(&result, d_out, sizeof(int), cudaMemcpyDeviceToHost);
    long long expect = std::accumulate(h.begin(), h.end(), 0LL);
    printf("sum = %d (expected %lld) %s\n", result, expect, result == expect ? "PASS" : "FAIL");
    cudaFree(d_in); cudaFree(d_out);
    return 0;
}
