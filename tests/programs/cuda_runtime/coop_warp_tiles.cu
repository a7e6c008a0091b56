// Warp reduction with cg::tiled_partition<32> and shfl_down (the cooperative-groups blog's
// reduce_sum_tile_shfl), and the votes and shuffles of smaller tiles.  One block of 128
// threads, input i = i + 1: warp w sums 32w+1 .. 32w+32 = 1024w + 528 (528, 1552, 2576,
// 3600; total 8256).  The tiles of 8: rank r of tile t holds 8t + r; shfl_xor(v, 1) swaps
// neighbours, shfl_up(v, 1) takes the rank below (rank 0 keeps its own), shfl(v, 7) the last
// rank's; the ballot of "rank is odd" is 0xaa in every tile, any(v == 13) is true in tile 1
// only, all(v < 100) everywhere.
#include <cstdio>
#include <cooperative_groups.h>
using namespace cooperative_groups;

template <int tile_sz>
__device__ int reduce_sum_tile_shfl(thread_block_tile<tile_sz> g, int val)
{
    for (int i = g.size() / 2; i > 0; i /= 2) val += g.shfl_down(val, i);
    return val;   // the full sum in rank 0
}

__global__ void warp_sums(const int *in, int *sums, int *total)
{
    thread_block block = this_thread_block();
    thread_block_tile<32> tile32 = tiled_partition<32>(block);
    int sum = reduce_sum_tile_shfl<32>(tile32, in[block.thread_rank()]);
    if (tile32.thread_rank() == 0) {
        sums[tile32.meta_group_rank()] = sum;
        atomicAdd(total, sum);
    }
}

__global__ void tiles_of_8(int *out)
{
    thread_block block = this_thread_block();
    thread_block_tile<8> t = tiled_partition<8>(block);
    int v = block.thread_rank();
    int swapped = t.shfl_xor(v, 1);
    int below = t.shfl_up(v, 1);
    int last = t.shfl(v, 7);
    unsigned odd = t.ballot(t.thread_rank() % 2 == 1);
    int has13 = t.any(v == 13);
    int small = t.all(v < 100);
    t.sync();
    if (t.thread_rank() < 3 && t.meta_group_rank() < 3)
        printf("tile %d/%d rank %d: v %d xor1 %d up1 %d shfl7 %d ballot %x any13 %d all<100 %d\n",
               t.meta_group_rank(), t.meta_group_size(), t.thread_rank(), v, swapped, below, last, odd, has13,
               small);
    out[v] = swapped;
}

int main()
{
    int h[128], sums[4], total = 0;
    for (int i = 0; i < 128; i++) h[i] = i + 1;
    int *d_in, *d_sums, *d_total, *d_out;
    cudaMalloc(&d_in, sizeof h);
    cudaMalloc(&d_sums, sizeof sums);
    cudaMalloc(&d_total, sizeof(int));
    cudaMalloc(&d_out, 32 * sizeof(int));
    cudaMemcpy(d_in, h, sizeof h, cudaMemcpyHostToDevice);
    cudaMemset(d_total, 0, sizeof(int));
    warp_sums<<<1, 128>>>(d_in, d_sums, d_total);
    cudaMemcpy(sums, d_sums, sizeof sums, cudaMemcpyDeviceToHost);
    cudaMemcpy(&total, d_total, sizeof(int), cudaMemcpyDeviceToHost);
    for (int w = 0; w < 4; w++) printf("warp %d: %d\n", w, sums[w]);
    printf("total %d\n", total);
    tiles_of_8<<<1, 32>>>(d_out);
    cudaDeviceSynchronize();
    int out[32];
    cudaMemcpy(out, d_out, sizeof out, cudaMemcpyDeviceToHost);
    for (int i = 0; i < 8; i++) printf("%d ", out[i]);
    printf("\n");
    return 0;
}
