// minicuda-run: -rdc=true -arch=sm_90
// A kernel that launches itself, one thread deeper each time, until a launch fails.  With
// CUDA 12's device runtime there is no depth limit for launches that are not waited for;
// a grid is complete only when its children are, so every grid of the chain stays pending,
// and the launch from depth 2048 exceeds cudaLimitDevRuntimePendingLaunchCount (2048):
// cudaErrorLaunchPendingCountExceeded, read by the launching thread with
// cudaGetLastError() (a second call returns cudaSuccess: reading clears it).  Printed by an
// H100 with nvcc 13.0 -rdc=true -arch=sm_90. threadIdx and
// blockIdx in each child are the child's own.
// 2049 grids: about 10 s of CPU on the interpreter (nested_pending_limit is its quick twin)
// slow
#include <cstdio>
#include <cuda_runtime.h>

__global__ void dive(int depth, int *deepest, int *failedAt, int *code, int *cleared) {
    if (threadIdx.x != 1 || blockIdx.x != 1) return;   // one thread of the 2 x 2 grid goes on
    *deepest = depth;
    dive<<<2, 2>>>(depth + 1, deepest, failedAt, code, cleared);
    cudaError_t err = cudaPeekAtLastError();
    if (err != cudaSuccess) {
        *failedAt = depth;
        *code = (int)cudaGetLastError();
        *cleared = (int)cudaGetLastError();
    }
}

int main() {
    int *d;
    cudaMalloc(&d, 4 * sizeof(int));
    cudaMemset(d, 0xff, 4 * sizeof(int));
    dive<<<2, 2>>>(0, d, d + 1, d + 2, d + 3);
    cudaError_t err = cudaDeviceSynchronize();
    int h[4];
    cudaMemcpy(h, d, sizeof(h), cudaMemcpyDeviceToHost);
    printf("host: %s\n", cudaGetErrorName(err));
    printf("deepest grid: depth %d\n", h[0]);
    printf("launch failed at depth %d: %s (%s)\n", h[1], cudaGetErrorName((cudaError_t)h[2]),
           cudaGetErrorString((cudaError_t)h[2]));
    printf("after reading it: %s\n", cudaGetErrorName((cudaError_t)h[3]));
    cudaFree(d);
    return 0;
}
