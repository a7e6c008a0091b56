// A two-phase reduction in one kernel with a grid-wide barrier (cg::this_grid().sync()),
// launched with cudaLaunchCooperativeKernel as cuda-samples' reductionMultiBlockCG is:
// phase 1, each block sums a grid-stride slice into partial[block]; grid.sync(); phase 2,
// block 0 sums the partial sums.  in[i] = i % 100 for 100000 values: 1000 runs of 0..99,
// 4950 each, total 4950000.  The grid is 8 blocks of 256 threads: an H100 holds 8 per SM
// (2048 threads), so the grid fits; a grid of 132 * 8 + 1 blocks does not:
// cudaErrorCooperativeLaunchTooLarge, returned by the launch and by cudaGetLastError.
// slow
#include <cstdio>
#include <cooperative_groups.h>
namespace cg = cooperative_groups;

__global__ void sum_two_phases(const int *in, int *partial, int *total, int n)
{
    cg::grid_group grid = cg::this_grid();
    cg::thread_block block = cg::this_thread_block();
    __shared__ int s[256];
    int sum = 0;
    for (unsigned long long i = grid.thread_rank(); i < n; i += grid.size()) sum += in[i];
    s[block.thread_rank()] = sum;
    block.sync();
    for (int k = block.size() / 2; k > 0; k /= 2) {
        if (block.thread_rank() < k) s[block.thread_rank()] += s[block.thread_rank() + k];
        block.sync();
    }
    if (block.thread_rank() == 0) partial[blockIdx.x] = s[0];
    grid.sync();
    if (blockIdx.x == 0) {
        int t = 0;
        for (int b = block.thread_rank(); b < gridDim.x; b += block.size()) t += partial[b];
        s[block.thread_rank()] = t;
        block.sync();
        if (block.thread_rank() == 0) {
            int all = 0;
            for (int j = 0; j < 256; j++) all += s[j];
            *total = all;
        }
    }
}

int main()
{
    const int n = 100000, blocks = 8, threads = 256;
    int *h = new int[n];
    for (int i = 0; i < n; i++) h[i] = i % 100;
    int *d_in, *d_partial, *d_total;
    cudaMalloc(&d_in, n * sizeof(int));
    cudaMalloc(&d_partial, 2048 * sizeof(int));
    cudaMalloc(&d_total, sizeof(int));
    cudaMemcpy(d_in, h, n * sizeof(int), cudaMemcpyHostToDevice);
    int supported = 0;
    cudaDeviceGetAttribute(&supported, cudaDevAttrCooperativeLaunch, 0);
    printf("cooperative launch supported: %d\n", supported);
    int count = n;
    void *args[] = {&d_in, &d_partial, &d_total, &count};
    cudaError_t err = cudaLaunchCooperativeKernel((void *)sum_two_phases, dim3(blocks), dim3(threads), args, 0, 0);
    printf("launch: %s\n", cudaGetErrorString(err));
    int total = 0, partial[blocks];
    cudaMemcpy(&total, d_total, sizeof(int), cudaMemcpyDeviceToHost);
    cudaMemcpy(partial, d_partial, sizeof partial, cudaMemcpyDeviceToHost);
    int check = 0;
    for (int b = 0; b < blocks; b++) check += partial[b];
    printf("total %d (partials add up to %d)\n", total, check);
    err = cudaLaunchCooperativeKernel((void *)sum_two_phases, dim3(132 * 8 + 1), dim3(threads), args, 0, 0);
    printf("too large: %s (%s)\n", cudaGetErrorName(err), cudaGetErrorString(err));
    printf("last error: %s\n", cudaGetErrorName(cudaGetLastError()));
    printf("after: %s\n", cudaGetErrorName(cudaDeviceSynchronize()));
    delete[] h;
    return 0;
}
