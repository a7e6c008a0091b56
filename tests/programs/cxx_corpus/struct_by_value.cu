// Structs by value everywhere C++ allows: kernel parameters holding arrays, device
// functions returning structs, struct assignment and copies in kernels and on the host.
#include <cstdio>

struct Stats {
    int count;
    int sum;
    int min, max;
};

struct Config {
    int weights[4];
    int bias;
    char tag;
};

__host__ __device__ Stats merge(Stats a, Stats b)
{
    Stats r;
    r.count = a.count + b.count;
    r.sum = a.sum + b.sum;
    r.min = a.min < b.min ? a.min : b.min;
    r.max = a.max > b.max ? a.max : b.max;
    return r;
}

__host__ __device__ Stats single(int v) { return Stats{1, v, v, v}; }

__global__ void evaluate(Config cfg, const int *in, int n, Stats *perBlock)
{
    __shared__ Stats part[64];
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    Stats s = {0, 0, 1 << 30, -(1 << 30)};
    if (i < n) {
        int v = cfg.bias;
        for (int k = 0; k < 4; k++) v += cfg.weights[k] * in[(i + k) % n];
        s = single(v);
    }
    part[threadIdx.x] = s;
    __syncthreads();
    if (threadIdx.x == 0) {
        Stats acc = part[0];
        for (int t = 1; t < blockDim.x; t++) acc = merge(acc, part[t]);
        perBlock[blockIdx.x] = acc;
    }
}

int main()
{
    const int n = 500, threads = 64, blocks = (n + threads - 1) / threads;
    int in[n];
    for (int i = 0; i < n; i++) in[i] = (i * 17) % 23 - 11;
    Config cfg = {{1, -2, 3, -4}, 5, 'q'};
    Config copy = cfg;
    copy.bias = 0;
    int *d_in;
    Stats *d_stats;
    cudaMalloc(&d_in, sizeof(in));
    cudaMalloc(&d_stats, blocks * sizeof(Stats));
    cudaMemcpy(d_in, in, sizeof(in), cudaMemcpyHostToDevice);
    evaluate<<<blocks, threads>>>(cfg, d_in, n, d_stats);
    Stats perBlock[blocks];
    cudaMemcpy(perBlock, d_stats, sizeof(perBlock), cudaMemcpyDeviceToHost);
    Stats total = perBlock[0];
    for (int b = 1; b < blocks; b++) total = merge(total, perBlock[b]);
    Stats host = {0, 0, 1 << 30, -(1 << 30)};
    for (int i = 0; i < n; i++) {
        int v = cfg.bias;
        for (int k = 0; k < 4; k++) v += cfg.weights[k] * in[(i + k) % n];
        host = merge(host, single(v));
    }
    printf("device: count %d sum %d min %d max %d\n", total.count, total.sum, total.min, total.max);
    printf("host:   count %d sum %d min %d max %d\n", host.count, host.sum, host.min, host.max);
    printf("tag %c, copy bias %d, original bias %d\n", cfg.tag, copy.bias, cfg.bias);
    cudaFree(d_in);
    cudaFree(d_stats);
    return 0;
}
