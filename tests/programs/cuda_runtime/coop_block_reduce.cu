// Block reduction with cg::thread_block (the cooperative-groups blog's sum over a block):
// each block of 256 threads sums its 256 inputs through shared memory, halving the active
// threads at each step, and thread 0 writes the block's sum.  Input i is i % 10, so each
// block of 256 consecutive values sums to 1150 or so: worked out by hand below.
#include <cstdio>
#include <cooperative_groups.h>
namespace cg = cooperative_groups;

__device__ int reduce_sum(cg::thread_group g, int *temp, int val)
{
    int lane = g.thread_rank();
    for (int i = g.size() / 2; i > 0; i /= 2) {
        temp[lane] = val;
        g.sync();
        if (lane < i) val += temp[lane + i];
        g.sync();
    }
    return val;
}

__global__ void block_sum(const int *in, int *out)
{
    __shared__ int temp[256];
    cg::thread_block block = cg::this_thread_block();
    int my = in[block.group_index().x * block.size() + block.thread_rank()];
    int sum = reduce_sum(block, temp, my);
    if (block.thread_rank() == 0) out[block.group_index().x] = sum;
    cg::sync(block);
    if (block.thread_rank() == 0 && blockIdx.x == 2)
        printf("block (%d,%d,%d) of %d threads, dims (%d,%d,%d), thread_index of rank 0: %d\n",
               block.group_index().x, block.group_index().y, block.group_index().z, (int)block.num_threads(),
               block.group_dim().x, block.dim_threads().y, block.group_dim().z, block.thread_index().x);
}

int main()
{
    const int blocks = 4, threads = 256, n = blocks * threads;
    int h[n], sums[blocks];
    for (int i = 0; i < n; i++) h[i] = i % 10;
    int *d_in, *d_out;
    cudaMalloc(&d_in, n * sizeof(int));
    cudaMalloc(&d_out, blocks * sizeof(int));
    cudaMemcpy(d_in, h, n * sizeof(int), cudaMemcpyHostToDevice);
    block_sum<<<blocks, threads>>>(d_in, d_out);
    cudaMemcpy(sums, d_out, blocks * sizeof(int), cudaMemcpyDeviceToHost);
    int total = 0;
    for (int b = 0; b < blocks; b++) {
        printf("block %d: %d\n", b, sums[b]);
        total += sums[b];
    }
    printf("total %d\n", total);
    cudaFree(d_in);
    cudaFree(d_out);
    return 0;
}
