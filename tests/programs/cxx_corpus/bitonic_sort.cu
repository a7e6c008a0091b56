// Bitonic sort of 2048 keys: one kernel launch per (k, j) step over global memory,
// then a single-block shared-memory bitonic sort of 512 keys.
#include <stdio.h>
#include <stdlib.h>

__global__ void bitonicStep(unsigned int *values, int j, int k)
{
    unsigned int i = threadIdx.x + blockDim.x * blockIdx.x;
    unsigned int ixj = i ^ j;
    if (ixj > i) {
        bool up = (i & k) == 0;
        if ((up && values[i] > values[ixj]) || (!up && values[i] < values[ixj])) {
            unsigned int t = values[i];
            values[i] = values[ixj];
            values[ixj] = t;
        }
    }
}

__global__ void bitonicShared(unsigned int *values)
{
    __shared__ unsigned int s[512];
    unsigned int tid = threadIdx.x;
    s[tid] = values[tid];
    s[tid + 256] = values[tid + 256];
    for (unsigned int k = 2; k <= 512; k <<= 1) {
        for (unsigned int j = k >> 1; j > 0; j >>= 1) {
            __syncthreads();
            for (unsigned int i = tid; i < 512; i += 256) {
                unsigned int ixj = i ^ j;
                if (ixj > i) {
                    bool up = (i & k) == 0;
                    if ((s[i] > s[ixj]) == up) {
                        unsigned int t = s[i];
                        s[i] = s[ixj];
                        s[ixj] = t;
                    }
                }
            }
        }
    }
    __syncthreads();
    values[tid] = s[tid];
    values[tid + 256] = s[tid + 256];
}

static int sorted(const unsigned int *v, int n)
{
    for (int i = 1; i < n; i++)
        if (v[i - 1] > v[i]) return 0;
    return 1;
}

int main(void)
{
    const int N = 2048;
    unsigned int *h = (unsigned int *)malloc(N * sizeof(unsigned int));
    unsigned int seed = 2463534242u;
    unsigned long long sumBefore = 0;
    for (int i = 0; i < N; i++) {
        seed ^= seed << 13;
        seed ^= seed >> 17;
        seed ^= seed << 5;
        h[i] = seed % 100000;
        sumBefore += h[i];
    }
    unsigned int *d;
    cudaMalloc(&d, N * sizeof(unsigned int));
    cudaMemcpy(d, h, N * sizeof(unsigned int), cudaMemcpyHostToDevice);
    int steps = 0;
    for (int k = 2; k <= N; k <<= 1)
        for (int j = k >> 1; j > 0; j >>= 1) {
            bitonicStep<<<N / 256, 256>>>(d, j, k);
            steps++;
        }
    unsigned int *out = (unsigned int *)malloc(N * sizeof(unsigned int));
    cudaMemcpy(out, d, N * sizeof(unsigned int), cudaMemcpyDeviceToHost);
    unsigned long long sumAfter = 0;
    for (int i = 0; i < N; i++) sumAfter += out[i];
    printf("global: %d steps, sorted=%d, sums equal=%d, min=%u median=%u max=%u\n", steps, sorted(out, N),
           sumBefore == sumAfter, out[0], out[N / 2], out[N - 1]);

    cudaMemcpy(d, h, 512 * sizeof(unsigned int), cudaMemcpyHostToDevice);
    bitonicShared<<<1, 256>>>(d);
    cudaMemcpy(out, d, 512 * sizeof(unsigned int), cudaMemcpyDeviceToHost);
    printf("shared: sorted=%d, first %u %u %u, last %u\n", sorted(out, 512), out[0], out[1], out[2], out[511]);
    cudaFree(d);
    free(h);
    free(out);
    return 0;
}
