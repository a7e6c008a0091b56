// grid.sync() in a kernel launched with <<<>>> rather than cudaLaunchCooperativeKernel: the
// launch itself succeeds, the kernel fails at the grid barrier, and the next synchronising
// call returns cudaErrorLaunchFailure ("unspecified launch failure"), as an H100 with CUDA 13
// reports it (minicuda also says on stderr which thread reached the barrier, and where).
#include <cstdio>
#include <cooperative_groups.h>
namespace cg = cooperative_groups;

__global__ void needs_cooperative_launch(int *x)
{
    cg::grid_group grid = cg::this_grid();
    x[grid.thread_rank()] = 1;
    grid.sync();
    x[grid.thread_rank()] = 2;
}

int main()
{
    int *d;
    cudaMalloc(&d, 64 * sizeof(int));
    needs_cooperative_launch<<<2, 32>>>(d);
    cudaError_t e = cudaGetLastError();
    printf("launch: %s\n", cudaGetErrorName(e));
    e = cudaDeviceSynchronize();
    printf("sync: %s: %s\n", cudaGetErrorName(e), cudaGetErrorString(e));
    return 0;
}
