// Depth-first issue over four streams (the book's chapter-6 simpleHyperqDepth shape) with
// cudaMemsetAsync clearing each stream's slice before a kernel accumulates into it.
// Slice s of 256 ints: memset to 0, then k launches of acc adding (i % 7) + s, k = s + 1.
#include <cstdio>
#include <cuda_runtime.h>

__global__ void acc(int *x, int s) { x[threadIdx.x] += threadIdx.x % 7 + s; }

int main() {
    const int STREAMS = 4, N = 256;
    int *d, *h;
    cudaMalloc(&d, STREAMS * N * sizeof(int));
    cudaMallocHost(&h, STREAMS * N * sizeof(int));
    cudaMemset(d, 0x7f, STREAMS * N * sizeof(int));
    cudaStream_t st[STREAMS];
    for (int s = 0; s < STREAMS; s++) cudaStreamCreate(&st[s]);
    for (int s = 0; s < STREAMS; s++) {
        cudaMemsetAsync(d + s * N, 0, N * sizeof(int), st[s]);
        for (int k = 0; k <= s; k++) acc<<<1, N, 0, st[s]>>>(d + s * N, s);
        cudaMemcpyAsync(h + s * N, d + s * N, N * sizeof(int), cudaMemcpyDeviceToHost, st[s]);
    }
    cudaDeviceSynchronize();
    for (int s = 0; s < STREAMS; s++) {
        long sum = 0;
        for (int i = 0; i < N; i++) sum += h[s * N + i];
        printf("stream %d: x[0]=%d x[6]=%d x[255]=%d sum=%ld\n", s, h[s * N], h[s * N + 6], h[s * N + 255], sum);
    }
    for (int s = 0; s < STREAMS; s++) cudaStreamDestroy(st[s]);
    cudaFree(d);
    cudaFreeHost(h);
    return 0;
}
