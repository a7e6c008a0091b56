// Overlapping copies and kernels: the array is split into chunks, each chunk's copy in,
// kernel and copy out issued on its own stream from pinned memory, timed with events.
#include <cstdio>
#include <cuda_runtime.h>
#define CHECK(call) do { cudaError_t e = (call); if (e != cudaSuccess) { \
    printf("%s:%d %s\n", __FILE__, __LINE__, cudaGetErrorString(e)); return 1; } } while (0)

__global__ void saxpy(float *y, const float *x, float a, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) y[i] = a * x[i] + y[i];
}

int main(void)
{
    const int n = 1 << 16, nStreams = 4, chunk = n / nStreams;
    float *hx, *hy, *dx, *dy;
    CHECK(cudaMallocHost(&hx, n * sizeof(float)));
    CHECK(cudaHostAlloc(&hy, n * sizeof(float), cudaHostAllocDefault));
    for (int i = 0; i < n; i++) { hx[i] = i * 0.5f; hy[i] = 1.0f; }
    CHECK(cudaMalloc(&dx, n * sizeof(float)));
    CHECK(cudaMalloc(&dy, n * sizeof(float)));
    cudaStream_t s[nStreams];
    for (int k = 0; k < nStreams; k++) CHECK(cudaStreamCreate(&s[k]));
    cudaEvent_t start, stop;
    cudaEventCreate(&start);
    cudaEventCreate(&stop);
    cudaEventRecord(start);
    for (int k = 0; k < nStreams; k++) {
        int off = k * chunk;
        cudaMemcpyAsync(dx + off, hx + off, chunk * sizeof(float), cudaMemcpyHostToDevice, s[k]);
        cudaMemcpyAsync(dy + off, hy + off, chunk * sizeof(float), cudaMemcpyHostToDevice, s[k]);
        saxpy<<<chunk / 256, 256, 0, s[k]>>>(dy + off, dx + off, 2.0f, chunk);
        cudaMemcpyAsync(hy + off, dy + off, chunk * sizeof(float), cudaMemcpyDeviceToHost, s[k]);
    }
    cudaEventRecord(stop);
    CHECK(cudaEventSynchronize(stop));
    float ms = -1;
    CHECK(cudaEventElapsedTime(&ms, start, stop));
    printf("elapsed positive: %d\n", ms > 0);
    double sum = 0;
    for (int i = 0; i < n; i++) sum += hy[i];
    printf("y[0]=%g y[1]=%g y[n-1]=%g sum=%.1f\n", hy[0], hy[1], hy[n - 1], sum);
    printf("query: %s\n", cudaGetErrorString(cudaStreamQuery(s[0])));
    for (int k = 0; k < nStreams; k++) CHECK(cudaStreamDestroy(s[k]));
    cudaFreeHost(hx);
    cudaFreeHost(hy);
    cudaFree(dx);
    cudaFree(dy);
    return 0;
}
