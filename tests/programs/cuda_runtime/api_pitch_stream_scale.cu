// A user-style program checked on an H100 when first written (tests/data/groundtruth/cuda).
#include <cstdio>
#include <cuda_runtime.h>
#define CHECK(x) do { cudaError_t e = (x); if (e != cudaSuccess) { fprintf(stderr, "%s:%d %s\n", __FILE__, __LINE__, cudaGetErrorString(e)); return 1; } } while (0)

__global__ void scaleRows(float *m, size_t pitch, int w, int h, float f) {
    int x = blockIdx.x * blockDim.x + threadIdx.x;
    int y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x < w && y < h) {
        float *row = (float *)((char *)m + y * pitch);
        row[x] = row[x] * f + y;
    }
}

int main() {
    const int W = 37, H = 11;
    float host[H][W];
    for (int y = 0; y < H; y++) for (int x = 0; x < W; x++) host[y][x] = x;
    float *dev; size_t pitch;
    CHECK(cudaMallocPitch(&dev, &pitch, W * sizeof(float), H));
    printf("pitch is a multiple of 512: %s, at least a row: %s\n", pitch % 512 == 0 ? "yes" : "no", pitch >= W * sizeof(float) ? "yes" : "no");
    cudaStream_t s;
    CHECK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
    CHECK(cudaMemcpy2DAsync(dev, pitch, host, W * sizeof(float), W * sizeof(float), H, cudaMemcpyHostToDevice, s));
    dim3 block(16, 8), grid((W + 15) / 16, (H + 7) / 8);
    scaleRows<<<grid, block, 0, s>>>(dev, pitch, W, H, 2.0f);
    CHECK(cudaGetLastError());
    CHECK(cudaMemcpy2DAsync(host, W * sizeof(float), dev, pitch, W * sizeof(float), H, cudaMemcpyDeviceToHost, s));
    CHECK(cudaStreamSynchronize(s));
    double sum = 0; for (int y = 0; y < H; y++) for (int x = 0; x < W; x++) sum += host[y][x];
    printf("host[3][5]=%.1f host[10][36]=%.1f sum=%.1f\n", host[3][5], host[10][36], sum);
    int minGrid = 0, bs = 0;
    CHECK(cudaOccupancyMaxPotentialBlockSize(&minGrid, &bs, scaleRows, 0, 0));
    printf("suggested block size is a multiple of 32: %s\n", bs % 32 == 0 && bs > 0 ? "yes" : "no");
    cudaError_t bad = cudaMemcpy2D(dev, 4, host, W * sizeof(float), W * sizeof(float), H, cudaMemcpyHostToDevice);
    printf("narrow pitch: %s\n", cudaGetErrorName(bad));
    CHECK(cudaStreamDestroy(s));
    CHECK(cudaFree(dev));
    return 0;
}
