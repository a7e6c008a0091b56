// Cooperative groups: a block sum through 16-thread tiles (shfl_down, then cg::reduce),
// and a tile's ballot and meta_group_rank.
#include <cstdio>
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
namespace cg = cooperative_groups;

__global__ void tileSums(const int *in, int *tileOut, int *blockOut, unsigned *ballots)
{
    cg::thread_block block = cg::this_thread_block();
    cg::thread_block_tile<16> tile = cg::tiled_partition<16>(block);
    int v = in[block.group_index().x * block.size() + block.thread_rank()];
    int s = v;
    for (int o = tile.size() / 2; o > 0; o /= 2)
        s += tile.shfl_down(s, o);
    int r = cg::reduce(tile, v, cg::plus<int>());
    unsigned b = tile.ballot(v % 3 == 0);
    if (tile.thread_rank() == 0) {
        int t = block.group_index().x * (block.size() / 16) + tile.meta_group_rank();
        tileOut[t] = s * 1000 + r;
        ballots[t] = b;
    }
    __shared__ int total;
    if (block.thread_rank() == 0) total = 0;
    block.sync();
    if (tile.thread_rank() == 0) atomicAdd(&total, r);
    block.sync();
    if (block.thread_rank() == 0) blockOut[block.group_index().x] = total;
}

int main(void)
{
    const int blocks = 2, threads = 64, n = blocks * threads, tiles = n / 16;
    int h[n], *din, *dtile, *dblock, ht[tiles], hb[blocks];
    unsigned *dballot, hballot[tiles];
    for (int i = 0; i < n; i++) h[i] = (i * 7) % 11;
    cudaMalloc(&din, sizeof(h));
    cudaMalloc(&dtile, sizeof(ht));
    cudaMalloc(&dblock, sizeof(hb));
    cudaMalloc(&dballot, sizeof(hballot));
    cudaMemcpy(din, h, sizeof(h), cudaMemcpyHostToDevice);
    tileSums<<<blocks, threads>>>(din, dtile, dblock, dballot);
    cudaMemcpy(ht, dtile, sizeof(ht), cudaMemcpyDeviceToHost);
    cudaMemcpy(hb, dblock, sizeof(hb), cudaMemcpyDeviceToHost);
    cudaMemcpy(hballot, dballot, sizeof(hballot), cudaMemcpyDeviceToHost);
    for (int t = 0; t < tiles; t++) printf("tile %d: %d ballot %08x\n", t, ht[t], hballot[t]);
    printf("blocks: %d %d\n", hb[0], hb[1]);
    return 0;
}
