// A student's histogram: shared bins updated without atomics (a race), then the fixed one.
#include <cstdio>
#define BINS 16
__global__ void histRacy(const int *data, int n, int *out) {
    __shared__ int bins[BINS];
    if (threadIdx.x < BINS) bins[threadIdx.x] = 0;
    __syncthreads();
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) bins[data[i] % BINS]++;          // read-modify-write race
    __syncthreads();
    if (threadIdx.x < BINS) atomicAdd(&out[threadIdx.x], bins[threadIdx.x]);
}
__global__ void histAtomic(const int *data, int n, int *out) {
    __shared__ int bins[BINS];
    if (threadIdx.x < BINS) bins[threadIdx.x] = 0;
    __syncthreads();
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) atomicAdd(&bins[data[i] % BINS], 1);
    __syncthreads();
    if (threadIdx.x < BINS) atomicAdd(&out[threadIdx.x], bins[threadIdx.x]);
}
int main() {
    const int n = 4096;
    int h[n];
    for (int i = 0; i < n; i++) h[i] = (i * 7 + 3) % 97;
    int *d, *out;
    cudaMalloc(&d, sizeof h); cudaMalloc(&out, BINS * sizeof(int));
    cudaMemcpy(d, h, sizeof h, cudaMemcpyHostToDevice);
    cudaMemset(out, 0, BINS * sizeof(int));
    histAtomic<<<n / 256, 256>>>(d, n, out);
    int r[BINS];
    cudaMemcpy(r, out, sizeof r, cudaMemcpyDeviceToHost);
    int total = 0;
    for (int b = 0; b < BINS; b++) total += r[b];
    printf("atomic total %d bin0 %d\n", total, r[0]);
    cudaMemset(out, 0, BINS * sizeof(int));
    histRacy<<<n / 256, 256>>>(d, n, out);
    cudaDeviceSynchronize();
    printf("racy run done: %s\n", cudaGetErrorString(cudaGetLastError()));
    cudaFree(d); cudaFree(out);
    return 0;
}
