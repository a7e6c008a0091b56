// References in host and device functions: reference parameters, const references,
// a function returning a reference, and local reference aliases.
#include <cstdio>

struct Accum {
    int count;
    long sum;
};

__host__ __device__ void swapInts(int &a, int &b)
{
    int t = a;
    a = b;
    b = t;
}

__host__ __device__ void addTo(Accum &acc, const int &value)
{
    acc.count += 1;
    acc.sum += value;
}

__device__ int &slot(int *base, int i) { return base[i]; }

__host__ __device__ const int &maxRef(const int &a, const int &b) { return a < b ? b : a; }

__global__ void sortPairs(int *data, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (2 * i + 1 >= n) return;
    int &lo = slot(data, 2 * i);
    int &hi = slot(data, 2 * i + 1);
    if (lo > hi) swapInts(lo, hi);
}

__global__ void summarize(const int *data, int n, Accum *out, int *largest)
{
    if (threadIdx.x != 0 || blockIdx.x != 0) return;
    Accum acc = {0, 0};
    int best = data[0];
    for (int i = 0; i < n; i++) {
        const int &v = data[i];
        addTo(acc, v);
        best = maxRef(best, v);
    }
    *out = acc;
    *largest = best;
}

void fill(int (&arr)[64], int seed)
{
    for (int &x : arr) {
        seed = (seed * 75 + 74) % 65537;
        x = seed % 1000;
    }
}

int main()
{
    int host[64];
    fill(host, 7);
    int *d;
    Accum *dAcc;
    int *dLargest;
    cudaMalloc(&d, sizeof(host));
    cudaMalloc(&dAcc, sizeof(Accum));
    cudaMalloc(&dLargest, sizeof(int));
    cudaMemcpy(d, host, sizeof(host), cudaMemcpyHostToDevice);
    sortPairs<<<1, 32>>>(d, 64);
    summarize<<<1, 32>>>(d, 64, dAcc, dLargest);
    int sorted[64];
    Accum acc;
    int largest;
    cudaMemcpy(sorted, d, sizeof(sorted), cudaMemcpyDeviceToHost);
    cudaMemcpy(&acc, dAcc, sizeof(Accum), cudaMemcpyDeviceToHost);
    cudaMemcpy(&largest, dLargest, sizeof(int), cudaMemcpyDeviceToHost);

    Accum hostAcc = {0, 0};
    int ok = 1;
    for (int i = 0; i < 64; i += 2) {
        int a = host[i], b = host[i + 1];
        if (a > b) swapInts(a, b);
        if (sorted[i] != a || sorted[i + 1] != b) ok = 0;
        addTo(hostAcc, host[i]);
        addTo(hostAcc, host[i + 1]);
    }
    int &first = sorted[0];
    first += 0;
    printf("pairs: (%d,%d) (%d,%d) (%d,%d)\n", sorted[0], sorted[1], sorted[2], sorted[3], sorted[4], sorted[5]);
    printf("device: count=%d sum=%ld largest=%d\n", acc.count, acc.sum, largest);
    printf("host:   count=%d sum=%ld\n", hostAcc.count, hostAcc.sum);
    printf("%s\n", ok && acc.sum == hostAcc.sum ? "PASS" : "FAIL");
    cudaFree(d);
    cudaFree(dAcc);
    cudaFree(dLargest);
    return 0;
}
