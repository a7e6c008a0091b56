// Device printf FIFO: argv[1] = FIFO size (0: default), argv[2] = format case,
// argv[3] = blocks, argv[4] = lines per thread (256 threads per block).
#include <stdio.h>
#include <stdlib.h>
__global__ void k(int fmt, int lines) {
    int t = blockIdx.x * blockDim.x + threadIdx.x;
    for (int i = 0; i < lines; i++) {
        if (fmt == 0) printf("%d %d\n", t, i);
        else if (fmt == 1) printf("hello\n");
        else if (fmt == 2) printf("%d\n", t);
        else if (fmt == 3) printf("%f %f %f %f\n", 1.0 * t, 2.0, 3.0, 4.0);
        else if (fmt == 4) printf("%s %d\n", "abcdefghijklmnopqrstuvwxyz", t);
        else printf("%d %d %d %d %d %d %d %d\n", t, i, t, i, t, i, t, i);
    }
}
int main(int argc, char **argv) {
    size_t fifo = atol(argv[1]);
    if (fifo) printf("set %s\n", cudaGetErrorName(cudaDeviceSetLimit(cudaLimitPrintfFifoSize, fifo)));
    size_t v; cudaDeviceGetLimit(&v, cudaLimitPrintfFifoSize); fprintf(stderr, "limit %zu\n", v);
    k<<<atoi(argv[3]), 256>>>(atoi(argv[2]), atoi(argv[4]));
    cudaDeviceSynchronize();
    fprintf(stderr, "second launch\n");
    k<<<1, 1>>>(1, 1);
    cudaDeviceSynchronize();
    size_t after; fprintf(stderr, "setafter %s\n", cudaGetErrorName(cudaDeviceSetLimit(cudaLimitPrintfFifoSize, 4096)));
    return 0;
}
