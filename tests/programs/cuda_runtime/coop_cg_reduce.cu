// cg::reduce over tiles (<cooperative_groups/reduce.h>): the sum, maximum and minimum of
// each warp's values with cg::plus, cg::greater and cg::less, and the sum over tiles of 8.
// Thread t of the 64 holds (t * 37) % 64, a permutation of 0..63: warp 0 holds 0..63 in
// steps of 37 (sum 1008, max 63, min 0), warp 1 the rest (sum 1008, max 62, min 1); the tiles
// of 8 sum to 204 or 268, checked on the host with the same formula.  Every rank of a tile
// receives the result (rank 5 of a warp and rank 7 of a tile store it; the host prints).
#include <cstdio>
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
namespace cg = cooperative_groups;

__global__ void tile_reductions(int *out, int *stats)
{
    cg::thread_block block = cg::this_thread_block();
    cg::thread_block_tile<32> warp = cg::tiled_partition<32>(block);
    int v = (block.thread_rank() * 37) % 64;
    int sum = cg::reduce(warp, v, cg::plus<int>());
    int most = cg::reduce(warp, v, cg::greater<int>());
    int least = cg::reduce(warp, v, cg::less<int>());
    cg::thread_block_tile<8> tile8 = cg::tiled_partition<8>(block);
    int sum8 = cg::reduce(tile8, v, cg::plus<int>());
    if (warp.thread_rank() == 5) {
        stats[3 * warp.meta_group_rank()] = sum;
        stats[3 * warp.meta_group_rank() + 1] = most;
        stats[3 * warp.meta_group_rank() + 2] = least;
    }
    if (tile8.thread_rank() == 7) out[tile8.meta_group_rank()] = sum8;
}

int main()
{
    int *d_out, out[8], *d_stats, stats[6];
    cudaMalloc(&d_out, sizeof out);
    cudaMalloc(&d_stats, sizeof stats);
    tile_reductions<<<1, 64>>>(d_out, d_stats);
    cudaMemcpy(out, d_out, sizeof out, cudaMemcpyDeviceToHost);
    cudaMemcpy(stats, d_stats, sizeof stats, cudaMemcpyDeviceToHost);
    for (int w = 0; w < 2; w++)
        printf("warp %d: sum %d max %d min %d\n", w, stats[3 * w], stats[3 * w + 1], stats[3 * w + 2]);
    for (int t = 0; t < 8; t++) {
        int expect = 0;
        for (int r = 0; r < 8; r++) expect += ((t * 8 + r) * 37) % 64;
        printf("tile %d: %d (%s)\n", t, out[t], out[t] == expect ? "ok" : "WRONG");
    }
    cudaFree(d_out);
    cudaFree(d_stats);
    return 0;
}
