// minicuda-run: -rdc=true -arch=sm_90
// nested_depth_limit's chain with cudaLimitDevRuntimePendingLaunchCount set to 8 before
// the first launch, which the device runtime keeps in slots of 32: cudaDeviceGetLimit reads
// back 32 (as an H100 with CUDA 13 does).  As the H100 printed for the default 2048:
// a grid stays pending until it and its descendants are complete, so when the grid at
// depth d launches, the d device-launched grids above it (depths 1..d) are all pending;
// the launch fails once d reaches the limit: the grid at depth 32 is the deepest, and its
// launch fails with cudaErrorLaunchPendingCountExceeded.  The failing thread reads the
// error with cudaGetLastError() (then cudaSuccess); the host sees no error.
#include <cstdio>
#include <cuda_runtime.h>

__global__ void dive(int depth, int *deepest, int *failedAt, int *code, int *cleared) {
    *deepest = depth;
    dive<<<1, 1>>>(depth + 1, deepest, failedAt, code, cleared);
    cudaError_t err = cudaGetLastError();
    if (err != cudaSuccess) {
        *failedAt = depth;
        *code = (int)err;
        *cleared = (int)cudaGetLastError();
    }
}

int main() {
    cudaError_t set = cudaDeviceSetLimit(cudaLimitDevRuntimePendingLaunchCount, 8);
    size_t limit = 0;
    cudaDeviceGetLimit(&limit, cudaLimitDevRuntimePendingLaunchCount);
    printf("set limit: %s, limit now %zu\n", cudaGetErrorName(set), limit);
    int *d;
    cudaMalloc(&d, 4 * sizeof(int));
    cudaMemset(d, 0xff, 4 * sizeof(int));
    dive<<<1, 1>>>(0, d, d + 1, d + 2, d + 3);
    cudaError_t err = cudaDeviceSynchronize();
    int h[4];
    cudaMemcpy(h, d, sizeof(h), cudaMemcpyDeviceToHost);
    printf("host: %s, then %s\n", cudaGetErrorName(err), cudaGetErrorName(cudaGetLastError()));
    printf("deepest grid: depth %d\n", h[0]);
    printf("launch failed at depth %d: %s (%d)\n", h[1], cudaGetErrorName((cudaError_t)h[2]), h[2]);
    printf("after reading it: %s\n", cudaGetErrorName((cudaError_t)h[3]));
    cudaFree(d);
    return 0;
}
