// Warp votes (CUDA 9's masked forms): __ballot_sync with __popc counts the lanes whose
// value passes a test, __any_sync / __all_sync answer for the warp, __activemask after a
// vote names the whole warp (printed xor a ballot of the lanes l % 3 == 0), and __ffs finds the first lane of a ballot.
// Lane l of warp w holds v = (w * 32 + l) * 7 % 64; the test is v < 20.
#include <cstdio>
#include <cuda_runtime.h>

__global__ void vote(int *counts, unsigned *ballots, int *anyAll, unsigned *branchMasks, int *first) {
    int lane = threadIdx.x % 32, warp = threadIdx.x / 32;
    int v = (warp * 32 + lane) * 7 % 64;
    unsigned b = __ballot_sync(0xffffffff, v < 20);
    int any = __any_sync(0xffffffff, v > 60);
    int all = __all_sync(0xffffffff, v % 7 == 0 || v > 0);
    unsigned m = __activemask();   // after a _sync vote the warp is converged: every lane
    unsigned thirds = __ballot_sync(0xffffffff, lane % 3 == 0);
    if (lane == 0) branchMasks[warp] = m ^ thirds;
    if (lane == 0) {
        ballots[warp] = b;
        counts[warp] = __popc(b);
        anyAll[warp] = any * 10 + all;
        first[warp] = __ffs(b) - 1;
    }
}

int main() {
    int *counts, *anyAll, *first;
    unsigned *ballots, *masks;
    cudaMallocManaged(&counts, 4 * sizeof(int));
    cudaMallocManaged(&anyAll, 4 * sizeof(int));
    cudaMallocManaged(&first, 4 * sizeof(int));
    cudaMallocManaged(&ballots, 4 * sizeof(unsigned));
    cudaMallocManaged(&masks, 4 * sizeof(unsigned));
    vote<<<1, 128>>>(counts, ballots, anyAll, masks, first);
    cudaDeviceSynchronize();
    for (int w = 0; w < 4; w++)
        printf("warp %d: ballot 0x%08x, %d lanes, any/all %02d, first lane %d, branch mask 0x%08x\n", w, ballots[w],
               counts[w], anyAll[w], first[w], masks[w]);
    cudaFree(counts); cudaFree(anyAll); cudaFree(first); cudaFree(ballots); cudaFree(masks);
    return 0;
}
