// A CUDA program calling a C library (stats.c) declared extern "C" in a shared header.
#include <stdio.h>
#include "stats.h"

__global__ void collatzSteps(int *steps, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    unsigned int x = i + 1;
    int s = 0;
    while (x != 1 && s < 500) {
        x = (x & 1) ? 3 * x + 1 : x / 2;
        s++;
    }
    steps[i] = s;
}

int main(void)
{
    const int n = 1000;
    int *d;
    cudaMalloc(&d, n * sizeof(int));
    collatzSteps<<<(n + 127) / 128, 128>>>(d, n);
    int h[n];
    cudaMemcpy(h, d, sizeof(h), cudaMemcpyDeviceToHost);
    printf("collatz steps for 1..%d: mean %.3f max %d\n", n, mean_of(h, n), max_of(h, n));
    printf("steps(27) = %d, C calls = %d\n", h[26], stats_calls);
    cudaFree(d);
    return 0;
}
