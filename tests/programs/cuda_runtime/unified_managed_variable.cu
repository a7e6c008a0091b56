// __managed__ variables and cudaMallocManaged memory, touched alternately by host and
// device with a cudaDeviceSynchronize between: a histogram of 1000 values (v = (i * 7) % 10)
// counted with atomicAdd into a __managed__ array, then scaled on the host, then
// prefix-summed by a single device thread.
#include <cstdio>
#include <cuda_runtime.h>

__managed__ int hist[10];
__managed__ int rounds = 0;

__global__ void count(const int *v, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) atomicAdd(&hist[v[i]], 1);
    if (i == 0) rounds++;
}

__global__ void prefix() {
    for (int b = 1; b < 10; b++) hist[b] += hist[b - 1];
    rounds++;
}

int main() {
    const int n = 1000;
    int *v;
    cudaMallocManaged(&v, n * sizeof(int));
    for (int i = 0; i < n; i++) v[i] = (i * 7) % 10;
    count<<<(n + 255) / 256, 256>>>(v, n);
    cudaDeviceSynchronize();
    for (int b = 0; b < 10; b++) printf("%d%c", hist[b], b == 9 ? '\n' : ' ');
    for (int b = 0; b < 10; b++) hist[b] *= b;
    rounds++;
    prefix<<<1, 1>>>();
    cudaDeviceSynchronize();
    for (int b = 0; b < 10; b++) printf("%d%c", hist[b], b == 9 ? '\n' : ' ');
    printf("rounds %d\n", rounds);
    cudaFree(v);
    return 0;
}
