// Vector addition split into chunks, each copied in, computed and copied out on its own
// stream (the book's chapter-6 shape), with pinned host memory and an event timing the whole.
#include <cstdio>
#include <cuda_runtime.h>

#define CHECK(call)                                                          \
    do {                                                                     \
        cudaError_t err = (call);                                            \
        if (err != cudaSuccess) {                                            \
            printf("Error: %s:%d, %s\n", __FILE__, __LINE__,                 \
                   cudaGetErrorString(err));                                 \
            return 1;                                                        \
        }                                                                    \
    } while (0)

__global__ void addChunk(const float *a, const float *b, float *c, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) c[i] = a[i] + b[i];
}

int main() {
    const int N = 1 << 12, STREAMS = 4, CHUNK = N / STREAMS;
    size_t bytes = N * sizeof(float);
    float *h_a, *h_b, *h_c;
    CHECK(cudaMallocHost((void **)&h_a, bytes));
    CHECK(cudaMallocHost((void **)&h_b, bytes));
    CHECK(cudaHostAlloc((void **)&h_c, bytes, cudaHostAllocDefault));
    for (int i = 0; i < N; i++) { h_a[i] = i * 0.5f; h_b[i] = 2.0f * i; }
    float *d_a, *d_b, *d_c;
    CHECK(cudaMalloc(&d_a, bytes));
    CHECK(cudaMalloc(&d_b, bytes));
    CHECK(cudaMalloc(&d_c, bytes));
    cudaStream_t streams[STREAMS];
    for (int s = 0; s < STREAMS; s++) CHECK(cudaStreamCreate(&streams[s]));
    cudaEvent_t start, stop;
    CHECK(cudaEventCreate(&start));
    CHECK(cudaEventCreate(&stop));
    CHECK(cudaEventRecord(start, 0));
    for (int s = 0; s < STREAMS; s++) {
        int off = s * CHUNK;
        CHECK(cudaMemcpyAsync(d_a + off, h_a + off, CHUNK * sizeof(float), cudaMemcpyHostToDevice, streams[s]));
        CHECK(cudaMemcpyAsync(d_b + off, h_b + off, CHUNK * sizeof(float), cudaMemcpyHostToDevice, streams[s]));
        addChunk<<<(CHUNK + 255) / 256, 256, 0, streams[s]>>>(d_a + off, d_b + off, d_c + off, CHUNK);
        CHECK(cudaMemcpyAsync(h_c + off, d_c + off, CHUNK * sizeof(float), cudaMemcpyDeviceToHost, streams[s]));
    }
    CHECK(cudaEventRecord(stop, 0));
    CHECK(cudaEventSynchronize(stop));
    float ms = 0;
    CHECK(cudaEventElapsedTime(&ms, start, stop));
    printf("elapsed is %s\n", ms >= 0.0f ? "non-negative" : "negative");
    for (int s = 0; s < STREAMS; s++) printf("stream %d query: %s\n", s, cudaGetErrorString(cudaStreamQuery(streams[s])));
    int bad = 0;
    for (int i = 0; i < N; i++)
        if (h_c[i] != 2.5f * i) bad++;
    printf("c[0]=%.1f c[%d]=%.1f c[%d]=%.1f mismatches=%d\n", h_c[0], CHUNK, h_c[CHUNK], N - 1, h_c[N - 1], bad);
    for (int s = 0; s < STREAMS; s++) CHECK(cudaStreamDestroy(streams[s]));
    CHECK(cudaEventDestroy(start));
    CHECK(cudaEventDestroy(stop));
    CHECK(cudaFree(d_a)); CHECK(cudaFree(d_b)); CHECK(cudaFree(d_c));
    CHECK(cudaFreeHost(h_a)); CHECK(cudaFreeHost(h_b)); CHECK(cudaFreeHost(h_c));
    printf("done\n");
    return 0;
}
