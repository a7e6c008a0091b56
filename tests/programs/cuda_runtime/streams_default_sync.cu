// The legacy default stream synchronises with the blocking streams: work launched on
// stream 0 waits for earlier work on every blocking stream, and later work on them waits
// for it.  Each kernel reads what the one before it in that order wrote, so the result
// shows the order: s1 sets v = 1, the default stream doubles v, s2 adds 10.
// A non-blocking stream's copy after cudaDeviceSynchronize sees everything.
#include <cstdio>
#include <cuda_runtime.h>

__global__ void setTo(int *v, int x) { v[threadIdx.x] = x + threadIdx.x; }
__global__ void twice(int *v) { v[threadIdx.x] *= 2; }
__global__ void addTen(int *v) { v[threadIdx.x] += 10; }

int main() {
    int *v;
    cudaMalloc(&v, 4 * sizeof(int));
    cudaStream_t s1, s2, nb;
    cudaStreamCreate(&s1);
    cudaStreamCreate(&s2);
    cudaStreamCreateWithFlags(&nb, cudaStreamNonBlocking);
    setTo<<<1, 4, 0, s1>>>(v, 1);
    twice<<<1, 4>>>(v);
    addTen<<<1, 4, 0, s2>>>(v);
    int h[4];
    cudaMemcpy(h, v, sizeof(h), cudaMemcpyDeviceToHost);
    printf("%d %d %d %d\n", h[0], h[1], h[2], h[3]);
    twice<<<1, 4, 0, cudaStreamLegacy>>>(v);
    cudaDeviceSynchronize();
    cudaMemcpyAsync(h, v, sizeof(h), cudaMemcpyDeviceToHost, nb);
    cudaStreamSynchronize(nb);
    printf("%d %d %d %d\n", h[0], h[1], h[2], h[3]);
    printf("queries: %s %s %s\n", cudaGetErrorName(cudaStreamQuery(s1)), cudaGetErrorName(cudaStreamQuery(0)),
           cudaGetErrorName(cudaStreamQuery(nb)));
    cudaStreamDestroy(s1);
    cudaStreamDestroy(s2);
    cudaStreamDestroy(nb);
    cudaFree(v);
    return 0;
}
