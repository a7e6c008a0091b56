// A tile whose size is known at run time: cg::tiled_partition(block, 16) is a thread_group
// (the cooperative-groups blog's reduce_sum over shared memory, on tiles of 16 threads).
// Two blocks of 64 threads; thread t of block b holds b * 100 + t.  Tile k of a block (its
// threads 16k .. 16k+15) sums to 16 * (b * 100 + 16k) + 120: block 0 gives 120, 376, 632,
// 888 and block 1 gives 1720, 1976, 2232, 2488.
#include <cstdio>
#include <cooperative_groups.h>
using namespace cooperative_groups;

__device__ int reduce_sum(thread_group g, int *temp, int val)
{
    int lane = g.thread_rank();
    for (int i = g.size() / 2; i > 0; i /= 2) {
        temp[lane] = val;
        g.sync();   // a WARPSYNC of the tile's 16 lanes
        if (lane < i) val += temp[lane + i];
        g.sync();
    }
    return val;
}

__global__ void tile_sums(int *out)
{
    __shared__ int temp[64];
    thread_block block = this_thread_block();
    thread_group tile = tiled_partition(block, 16);
    int tile_index = block.thread_rank() / 16;
    int *tile_temp = temp + 16 * tile_index;
    int sum = reduce_sum(tile, tile_temp, blockIdx.x * 100 + block.thread_rank());
    if (tile.thread_rank() == 0) out[blockIdx.x * 4 + tile_index] = sum;
    if (blockIdx.x == 1 && block.thread_rank() == 37)
        printf("thread 37: rank %d of %d in its tile\n", (int)tile.thread_rank(), (int)tile.size());
}

int main()
{
    int *d_out, out[8];
    cudaMalloc(&d_out, sizeof out);
    tile_sums<<<2, 64>>>(d_out);
    cudaMemcpy(out, d_out, sizeof out, cudaMemcpyDeviceToHost);
    for (int b = 0; b < 2; b++)
        printf("block %d: %d %d %d %d\n", b, out[4 * b], out[4 * b + 1], out[4 * b + 2], out[4 * b + 3]);
    cudaFree(d_out);
    return 0;
}
