// A program of three .cu files: the kernel launched here is defined in kernels.cu.
#include <cstdio>
#include "kernels.h"

extern __global__ void fillPattern(int *data, int n, int seed);

int main()
{
    const int n = 1500;
    int *d;
    cudaMalloc(&d, n * sizeof(int));
    fillPattern<<<(n + 255) / 256, 256>>>(d, n, 17);
    ++g_launches;
    launchScale(d, n, 3);
    int h[n];
    cudaMemcpy(h, d, sizeof(h), cudaMemcpyDeviceToHost);
    printf("h[0]=%d h[1]=%d h[1499]=%d\n", h[0], h[1], h[n - 1]);
    printf("checksum %d after %d launches\n", checksum(h, n), g_launches);
    cudaFree(d);
    return 0;
}
