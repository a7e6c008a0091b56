// Timing with events (the book's chapter-6 shape): events around a sequence of kernels on
// a stream, around each kernel, and a blocking-sync event; only whether each elapsed time
// is non-negative is printed.  An event not yet recorded cannot be timed.
// Kernel: data[i] = data[i] * 2 + 1, run 5 times from 0: 31.
#include <cstdio>
#include <cuda_runtime.h>

__global__ void twicePlusOne(int *data, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) data[i] = data[i] * 2 + 1;
}

int main() {
    const int n = 1 << 12, ROUNDS = 5;
    int *d;
    cudaMalloc(&d, n * sizeof(int));
    cudaMemset(d, 0, n * sizeof(int));
    cudaStream_t s;
    cudaStreamCreate(&s);
    cudaEvent_t start, stop, marks[ROUNDS + 1], never, blocking;
    cudaEventCreate(&start);
    cudaEventCreate(&stop);
    cudaEventCreate(&never);
    cudaEventCreateWithFlags(&blocking, cudaEventBlockingSync);
    for (int r = 0; r <= ROUNDS; r++) cudaEventCreate(&marks[r]);
    cudaEventRecord(start, s);
    for (int r = 0; r < ROUNDS; r++) {
        cudaEventRecord(marks[r], s);
        twicePlusOne<<<n / 256, 256, 0, s>>>(d, n);
    }
    cudaEventRecord(marks[ROUNDS], s);
    cudaEventRecord(stop, s);
    cudaEventRecord(blocking, s);
    cudaEventSynchronize(stop);
    cudaEventSynchronize(blocking);
    float total, each, sum = 0;
    cudaEventElapsedTime(&total, start, stop);
    int nonNegative = 0;
    for (int r = 0; r < ROUNDS; r++) {
        cudaEventElapsedTime(&each, marks[r], marks[r + 1]);
        if (each >= 0) nonNegative++;
        sum += each;
    }
    printf("total elapsed non-negative: %s\n", total >= 0 ? "yes" : "no");
    printf("rounds with a non-negative time: %d of %d\n", nonNegative, ROUNDS);
    printf("query stop: %s\n", cudaGetErrorName(cudaEventQuery(stop)));
    cudaError_t e = cudaEventElapsedTime(&each, start, never);
    printf("an event never recorded: %s\n", cudaGetErrorName(e));
    cudaGetLastError();
    int h[3];
    cudaMemcpy(h, d, sizeof(h), cudaMemcpyDeviceToHost);
    printf("data: %d %d %d\n", h[0], h[1], h[2]);
    for (int r = 0; r <= ROUNDS; r++) cudaEventDestroy(marks[r]);
    cudaEventDestroy(start); cudaEventDestroy(stop); cudaEventDestroy(never); cudaEventDestroy(blocking);
    cudaStreamDestroy(s);
    cudaFree(d);
    return 0;
}
