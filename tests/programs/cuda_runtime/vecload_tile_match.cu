// Warp match functions: __match_any_sync / __match_all_sync (MATCH.ANY / MATCH.ALL), a
// tile's and a coalesced group's match_any / match_all (the result by rank in the group), and
// grid_group::is_valid(), false unless the kernel was launched with cudaLaunchCooperativeKernel.
// One block of 32 threads; by hand:
//   any[t]: lanes u of the warp with u % 3 == t % 3 (t = 0: 0x49249249, 1: 0x92492492, 2: 0x24924924);
//   all: __match_all_sync of t / 16 over the warp differs, so 0 and pred 0; over the lanes
//        below 16 only (a mask of 0x0000ffff) the same, so 0xffff and pred 1;
//   tile<8> rank r: match_any(r % 3) = ranks 0,3,6 (0x49), 1,4,7 (0x92) or 2,5 (0x24);
//        match_all(t / 8) = 0xff, pred 1 (printed as all * 10 + pred = 2551);
//   even threads (a coalesced group of 16): match_any((float)(t % 4)) = ranks of t % 4 == 0
//        (0x5555) or == 2 (0xaaaa); match_all(7LL) = 0xffff, pred 1 (printed as sum 0x10000);
//   grid valid: 0 with <<<>>>, 1 with cudaLaunchCooperativeKernel.
#include <cstdio>
#include <cooperative_groups.h>
namespace cg = cooperative_groups;

__global__ void match(unsigned *out, int *valid)
{
    unsigned t = threadIdx.x;
    out[t] = __match_any_sync(0xffffffffu, (int)(t % 3));
    int pred = -1;
    unsigned whole = __match_all_sync(0xffffffffu, t / 16, &pred);
    out[32 + t] = whole * 10 + pred;
    if (t < 16) {
        unsigned low = __match_all_sync(0x0000ffffu, t / 16, &pred);
        out[32 + t] = low * 10 + pred;
    }
    cg::thread_block_tile<8> tile = cg::tiled_partition<8>(cg::this_thread_block());
    out[64 + t] = tile.match_any(tile.thread_rank() % 3);
    unsigned in_tile = tile.match_all(t / 8, pred);
    out[96 + t] = in_tile * 10 + pred;
    if (t % 2 == 0) {
        cg::coalesced_group even = cg::coalesced_threads();
        out[128 + t] = even.match_any((float)(t % 4));
        unsigned in_even = even.match_all(7LL, pred);
        out[160 + t] = in_even + pred;
    }
    valid[t] = cg::this_grid().is_valid();
}

int main()
{
    unsigned *d, h[192];
    int *v, hv[32];
    cudaMalloc(&d, sizeof h);
    cudaMemset(d, 0, sizeof h);
    cudaMalloc(&v, sizeof hv);
    match<<<1, 32>>>(d, v);
    cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost);
    cudaMemcpy(hv, v, sizeof hv, cudaMemcpyDeviceToHost);
    for (int t = 0; t < 32; t += 5)
        printf("%2d: any %08x all %u tile %x %u even %x %x\n", t, h[t], h[32 + t], h[64 + t], h[96 + t],
               h[128 + t], h[160 + t]);
    printf("grid valid with <<<>>>: %d\n", hv[0]);
    void *args[] = {&d, &v};
    cudaError_t e = cudaLaunchCooperativeKernel((void *)match, 1, 32, args);
    cudaMemcpy(hv, v, sizeof hv, cudaMemcpyDeviceToHost);
    printf("grid valid with cudaLaunchCooperativeKernel: %d (%s)\n", hv[0], cudaGetErrorName(e));
    return 0;
}
