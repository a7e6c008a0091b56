// Warp-aggregated atomics with cg::coalesced_threads() (NVIDIA's "optimized filtering"
// pro tip): the threads of a warp that take the branch form a coalesced group; its rank 0
// adds the group's size to the counter once, and each thread's slot is the old value plus
// its rank.  src[i] = (i * 7) % 10 - 4 for 1000 values: src[i] > 0 for the 500 i with
// (7i) % 10 in 5..9, so 500 values are kept, and they sum to 500 * 3 = 1500 (100 each of
// 1..5).  The order of the kept values depends on the order the warps reach the atomic,
// so the host checks them as a multiset.  A second kernel shows one warp's group of the
// lanes divisible by 4: 8 members, ranks 0..7, and the lane of rank 3 (lane 12).
#include <cstdio>
#include <cooperative_groups.h>
namespace cg = cooperative_groups;

__device__ int atomicAggInc(int *ctr)
{
    cg::coalesced_group g = cg::coalesced_threads();
    int warp_res;
    if (g.thread_rank() == 0) warp_res = atomicAdd(ctr, (int)g.size());
    return g.shfl(warp_res, 0) + g.thread_rank();
}

__global__ void filter_k(int *dst, int *nres, const int *src, int n)
{
    int i = threadIdx.x + blockIdx.x * blockDim.x;
    if (i < n && src[i] > 0) dst[atomicAggInc(nres)] = src[i];
}

__global__ void lanes_of_four(int *info)
{
    if (threadIdx.x % 4 == 0) {
        cg::coalesced_group g = cg::coalesced_threads();
        int lane_of_rank3 = g.shfl((int)threadIdx.x, 3);
        info[threadIdx.x / 4] = (int)g.thread_rank() * 1000 + (int)g.size() * 100 + lane_of_rank3;
        g.sync();
    }
}

int main()
{
    const int n = 1000;
    int src[n], dst[n], count = 0;
    for (int i = 0; i < n; i++) src[i] = (i * 7) % 10 - 4;
    int *d_src, *d_dst, *d_count;
    cudaMalloc(&d_src, sizeof src);
    cudaMalloc(&d_dst, sizeof dst);
    cudaMalloc(&d_count, sizeof(int));
    cudaMemcpy(d_src, src, sizeof src, cudaMemcpyHostToDevice);
    cudaMemset(d_count, 0, sizeof(int));
    filter_k<<<(n + 127) / 128, 128>>>(d_dst, d_count, d_src, n);
    cudaMemcpy(&count, d_count, sizeof(int), cudaMemcpyDeviceToHost);
    cudaMemcpy(dst, d_dst, count * sizeof(int), cudaMemcpyDeviceToHost);
    int histogram[6] = {0}, sum = 0;
    for (int i = 0; i < count; i++) {
        sum += dst[i];
        if (dst[i] >= 1 && dst[i] <= 5) histogram[dst[i]]++;
    }
    printf("kept %d values, sum %d\n", count, sum);
    for (int v = 1; v <= 5; v++) printf("value %d: %d times\n", v, histogram[v]);
    int *d_info, info[8];
    cudaMalloc(&d_info, sizeof info);
    lanes_of_four<<<1, 32>>>(d_info);
    cudaMemcpy(info, d_info, sizeof info, cudaMemcpyDeviceToHost);
    for (int i = 0; i < 8; i++) printf("lane %d: rank %d size %d, rank 3 is lane %d\n", 4 * i, info[i] / 1000,
                                       info[i] / 100 % 10, info[i] % 100);
    return 0;
}
