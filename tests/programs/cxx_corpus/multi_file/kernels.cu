// The fill kernel and the host-side checksum; main.cu launches fillPattern through its
// declaration in kernels.h.
#include "kernels.h"

int g_launches = 0;

__global__ void fillPattern(int *data, int n, int seed)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) data[i] = (i * seed + 3) % 1000;
}

int checksum(const int *data, int n)
{
    unsigned h = 0;
    for (int i = 0; i < n; i++) h = h * 31u + (unsigned)data[i];
    return (int)(h & 0x7fffffff);
}
