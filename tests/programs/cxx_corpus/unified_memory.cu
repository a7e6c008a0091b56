// Unified memory: cudaMallocManaged buffers written on the host, updated by kernels and
// read back on the host after cudaDeviceSynchronize, with no explicit copies.
#include <cstdio>

__global__ void init(int n, float *x, float *y)
{
    int index = blockIdx.x * blockDim.x + threadIdx.x;
    int stride = blockDim.x * gridDim.x;
    for (int i = index; i < n; i += stride) {
        x[i] = 1.0f;
        y[i] = 2.0f;
    }
}

__global__ void add(int n, float *x, float *y)
{
    int index = blockIdx.x * blockDim.x + threadIdx.x;
    int stride = blockDim.x * gridDim.x;
    for (int i = index; i < n; i += stride) y[i] = x[i] + y[i];
}

struct Counter {
    int hits;
    int misses;
};

__global__ void tally(const float *y, int n, Counter *c)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        if (y[i] == 3.0f) atomicAdd(&c->hits, 1);
        else atomicAdd(&c->misses, 1);
    }
}

int main(void)
{
    int N = 1 << 12;
    float *x, *y;
    Counter *c;
    cudaMallocManaged(&x, N * sizeof(float));
    cudaMallocManaged(&y, N * sizeof(float));
    cudaMallocManaged(&c, sizeof(Counter));
    init<<<4, 256>>>(N, x, y);
    add<<<4, 256>>>(N, x, y);
    cudaDeviceSynchronize();
    y[10] = 7.0f;
    c->hits = 0;
    c->misses = 0;
    tally<<<N / 256, 256>>>(y, N, c);
    cudaDeviceSynchronize();
    float maxError = 0.0f;
    for (int i = 0; i < N; i++)
        if (i != 10) maxError = fmaxf(maxError, fabsf(y[i] - 3.0f));
    printf("Max error: %g\n", maxError);
    printf("hits %d misses %d, y[10] = %.1f\n", c->hits, c->misses, y[10]);
    cudaFree(x);
    cudaFree(y);
    cudaFree(c);
    return 0;
}
