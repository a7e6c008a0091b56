// RUN: minicudac %s -O3 | filecheck %s
// RUN: minicudac %s -O3 -arch=sm_60 | filecheck --check-prefix=PASCAL %s
//
// <cooperative_groups.h> lowers to the instructions of the intrinsics it stands for: a
// block's sync() is BAR.SYNC, a tile's sync() a WARPSYNC of its lanes (legal in divergent
// code under independent thread scheduling; under the pascal stack model inside SSY/SYNC),
// its shuffles SHFL with the tile's width and mask, its ballot a VOTE, coalesced_threads()
// an ACTIVEMASK and its size a POPC, and a grid's sync() GRIDSYNC between two BAR.SYNCs.
#include <cooperative_groups.h>
namespace cg = cooperative_groups;

__global__ void block_sync(int *o) {
    // CHECK-LABEL: .kernel block_sync
    cg::thread_block block = cg::this_thread_block();
    o[block.thread_rank()] = 1;
    // CHECK: BAR.SYNC 0
    block.sync();
    o[0] = 2;
    // CHECK: .end block_sync
}

__global__ void tile_ops(int *o) {
    // CHECK-LABEL: .kernel tile_ops
    // PASCAL-LABEL: .kernel tile_ops
    cg::thread_block_tile<16> t = cg::tiled_partition<16>(cg::this_thread_block());
    int v = o[t.thread_rank()];
    // CHECK: SHFL.DOWN {{R[0-9]+}}, {{R[0-9]+}}, {{R[0-9]+}}, 16, [[MASK:R[0-9]+]]
    v += t.shfl_down(v, 1);
    // CHECK: SHFL.BFLY {{R[0-9]+}}, {{R[0-9]+}}, {{R[0-9]+}}, 16, [[MASK]]
    v += t.shfl_xor(v, 2);
    // CHECK: VOTE.BALLOT
    o[1] = t.ballot(v > 0);
    // CHECK: WARPSYNC
    // PASCAL: SSY
    // PASCAL: WARPSYNC
    // PASCAL: {{^ *}}SYNC
    if (v > 3) t.sync();
    o[2] = v;
    // CHECK: .end tile_ops
}

__global__ void coalesced(int *o) {
    // CHECK-LABEL: .kernel coalesced
    if (o[threadIdx.x] > 0) {
        // CHECK: ACTIVEMASK
        cg::coalesced_group g = cg::coalesced_threads();
        // CHECK: POPC.U32
        o[3] = g.size();
    }
    // CHECK: .end coalesced
}

__global__ void grid(int *o) {
    // CHECK-LABEL: .kernel grid
    // CHECK: BAR.SYNC 0
    // CHECK-NEXT: GRIDSYNC
    // CHECK-NEXT: BAR.SYNC 0
    cg::this_grid().sync();
    o[0] = 1;
    // CHECK: .end grid
}
