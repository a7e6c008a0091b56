// Overlapping work in streams: pinned host memory, the array split into chunks, each
// chunk copied in, processed and copied out asynchronously in its own stream.
#include <stdio.h>
#include "common.h"

#define NSTREAM 4

__global__ void kernel(float *a, int offset)
{
    int i = offset + threadIdx.x + blockIdx.x * blockDim.x;
    float x = (float)i;
    float s = 0.0f;
    for (int k = 0; k < 8; k++) s += x * 0.5f;
    a[i] = a[i] + s;
}

int main(void)
{
    const int blockSize = 128, n = 4 * 1024;
    const int streamSize = n / NSTREAM;
    const int streamBytes = streamSize * sizeof(float);
    const int bytes = n * sizeof(float);
    float *a, *d_a;
    CHECK(cudaMallocHost((void **)&a, bytes));
    CHECK(cudaMalloc((void **)&d_a, bytes));
    cudaStream_t stream[NSTREAM];
    for (int i = 0; i < NSTREAM; ++i) CHECK(cudaStreamCreate(&stream[i]));
    cudaEvent_t start, stop;
    CHECK(cudaEventCreate(&start));
    CHECK(cudaEventCreate(&stop));

    for (int i = 0; i < n; i++) a[i] = 1.0f;
    CHECK(cudaEventRecord(start, 0));
    for (int i = 0; i < NSTREAM; ++i) {
        int offset = i * streamSize;
        CHECK(cudaMemcpyAsync(&d_a[offset], &a[offset], streamBytes, cudaMemcpyHostToDevice, stream[i]));
        kernel<<<streamSize / blockSize, blockSize, 0, stream[i]>>>(d_a, offset);
        CHECK(cudaMemcpyAsync(&a[offset], &d_a[offset], streamBytes, cudaMemcpyDeviceToHost, stream[i]));
    }
    CHECK(cudaEventRecord(stop, 0));
    CHECK(cudaEventSynchronize(stop));
    float ms;
    CHECK(cudaEventElapsedTime(&ms, start, stop));
    printf("Time for asynchronous V1 transfer and execute (ms): %f\n", ms);
    for (int i = 0; i < NSTREAM; ++i) CHECK(cudaStreamSynchronize(stream[i]));

    double maxError = 0, sum = 0;
    for (int i = 0; i < n; i++) {
        double expect = 1.0 + 4.0 * i;
        double e = a[i] > expect ? a[i] - expect : expect - a[i];
        if (e > maxError) maxError = e;
        sum += a[i];
    }
    printf("max error %g, sum %.1f, a[4095] = %.1f\n", maxError, sum, a[n - 1]);
    printf("stream query: %s\n", cudaStreamQuery(stream[0]) == cudaSuccess ? "idle" : "busy");
    CHECK(cudaEventDestroy(start));
    CHECK(cudaEventDestroy(stop));
    for (int i = 0; i < NSTREAM; ++i) CHECK(cudaStreamDestroy(stream[i]));
    CHECK(cudaFree(d_a));
    CHECK(cudaFreeHost(a));
    return 0;
}
