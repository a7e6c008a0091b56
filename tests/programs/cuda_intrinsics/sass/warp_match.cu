// RUN: minicudac %s -O3 | filecheck %s
//
// __match_any_sync and __match_all_sync are MATCH.ANY and MATCH.ALL (.64 for a 64-bit value),
// the predicate of __match_all_sync the result's test; a tile's and a coalesced group's
// match_any / match_all are the same MATCH with the group's lanes as the mask.
#include <cooperative_groups.h>
namespace cg = cooperative_groups;

__global__ void free_functions(unsigned *o, long long *w)
{
    // CHECK-LABEL: .kernel free_functions
    // CHECK: MATCH.ANY {{R[0-9]+}}, {{R[0-9]+}}, 0xffffffff
    o[0] = __match_any_sync(0xffffffffu, (int)threadIdx.x);
    int pred;
    // CHECK: MATCH.ALL.64 [[ALL:R[0-9]+]], {{R[0-9]+}}, 0xffffffff
    // CHECK-NEXT: ISETP.NE.U32 [[P:P[0-9]]], [[ALL]], 0
    // CHECK-NEXT: SEL {{R[0-9]+}}, 1, 0, [[P]]
    o[1] = __match_all_sync(0xffffffffu, w[threadIdx.x], &pred);
    o[2] = pred;
    // CHECK: .end free_functions
}

__global__ void tile_match(unsigned *o)
{
    // CHECK-LABEL: .kernel tile_match
    cg::thread_block_tile<16> t = cg::tiled_partition<16>(cg::this_thread_block());
    // CHECK: MATCH.ANY {{R[0-9]+}}, {{R[0-9]+}}, {{R[0-9]+}}
    o[threadIdx.x] = t.match_any(threadIdx.x % 4);
    int pred;
    // CHECK: MATCH.ALL {{R[0-9]+}}, {{R[0-9]+}}, {{R[0-9]+}}
    o[32 + threadIdx.x] = t.match_all(1.5f, pred);
    // CHECK: .end tile_match
}

int main() { return 0; }
