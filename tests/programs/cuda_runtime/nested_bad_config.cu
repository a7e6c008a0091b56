// minicuda-run: -rdc=true -arch=sm_90
// Device-side launches with a configuration no GPU runs: 0 threads per block, 1025 threads
// per block (the limit is 1024), 0 blocks.  Each is refused with cudaErrorInvalidConfiguration
// (9), as an H100 with CUDA 13 returns it to device code (tests/data/groundtruth/cuda), where
// the same host launch gets cudaErrorInvalidValue (1, tests/data/groundtruth/launch).
// The launching thread reads it with cudaPeekAtLastError() (which does not clear it),
// then cudaGetLastError() (which does: a second one reads cudaSuccess).  The error is the
// launching thread's own: thread 1, whose launch is good, reads cudaSuccess, and the host
// sees no error.  By hand: only thread 1's child runs, its thread 0 printing one line.
#include <cstdio>
#include <cuda_runtime.h>

__global__ void child(int tag) {
    if (threadIdx.x == 0) printf("child %d ran with %d threads\n", tag, blockDim.x);
}

__global__ void parent(int *codes) {
    if (threadIdx.x == 0) {
        int k = 0;
        dim3 configs[3][2] = {{dim3(1), dim3(0)}, {dim3(1), dim3(1025)}, {dim3(0), dim3(1)}};
        for (int i = 0; i < 3; i++) {
            child<<<configs[i][0], configs[i][1]>>>(i);
            codes[k++] = (int)cudaPeekAtLastError();
            codes[k++] = (int)cudaGetLastError();
            codes[k++] = (int)cudaGetLastError();
        }
    } else {
        child<<<1, 32>>>(threadIdx.x);
        codes[9] = (int)cudaGetLastError();
    }
}

int main() {
    int *d;
    cudaMalloc(&d, 10 * sizeof(int));
    parent<<<1, 2>>>(d);
    cudaError_t err = cudaDeviceSynchronize();
    int h[10];
    cudaMemcpy(h, d, sizeof(h), cudaMemcpyDeviceToHost);
    printf("host: %s, then %s\n", cudaGetErrorName(err), cudaGetErrorName(cudaGetLastError()));
    for (int i = 0; i < 3; i++)
        printf("bad launch %d: peek %s, get %d, again %s\n", i, cudaGetErrorName((cudaError_t)h[3 * i]),
               h[3 * i + 1], cudaGetErrorName((cudaError_t)h[3 * i + 2]));
    printf("thread 1's launch: %s\n", cudaGetErrorName((cudaError_t)h[9]));
    cudaFree(d);
    return 0;
}
