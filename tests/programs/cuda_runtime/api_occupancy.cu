// The simpleOccupancy sample's shape: ask the occupancy calculator for a block size,
// launch with it, and report occupancy as a fraction of the SM's warps.  The kernel is
// small (few registers, no shared memory), so on sm_70 and newer every block size up to
// 1024 fills an SM's 64 warps, and the calculator picks 1024.
#include <cstdio>
#include <cuda_runtime.h>

__global__ void square(int *array, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) array[i] *= array[i];
}

double occupancy(int blockSize) {
    int blocks, device = 0;
    cudaDeviceProp prop;
    cudaGetDeviceProperties(&prop, device);
    cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, square, blockSize, 0);
    int activeWarps = blocks * blockSize / prop.warpSize;
    int maxWarps = prop.maxThreadsPerMultiProcessor / prop.warpSize;
    return (double)activeWarps / maxWarps;
}

int main() {
    const int N = 3000;
    int *a;
    cudaMallocManaged(&a, N * sizeof(int));
    for (int i = 0; i < N; i++) a[i] = i % 1000;
    int minGridSize, blockSize;
    cudaOccupancyMaxPotentialBlockSize(&minGridSize, &blockSize, square, 0, 0);
    int sms;
    cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0);
    printf("suggested block size: %d\n", blockSize);
    printf("minimum grid is %d blocks per SM\n", minGridSize / sms);
    int gridSize = (N + blockSize - 1) / blockSize;
    square<<<gridSize, blockSize>>>(a, N);
    cudaDeviceSynchronize();
    long long sum = 0;
    for (int i = 0; i < N; i++) sum += a[i];
    printf("sum of squares: %lld\n", sum);
    int sizes[] = {32, 64, 128, 256, 512, 1024};
    for (int s : sizes) printf("block %4d: occupancy %.3f\n", s, occupancy(s));
    int limited;
    cudaOccupancyMaxPotentialBlockSize(&minGridSize, &limited, square, 0, 200);
    printf("with a limit of 200 threads: block %d\n", limited);
    cudaFree(a);
    return 0;
}
