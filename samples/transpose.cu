/*
 * transpose.cu: a matrix transpose four ways, timed on the host as the books time it
 * (a gettimeofday clock around the launch and cudaDeviceSynchronize).
 *
 *   0 naiveRow: reads rows, writes columns (each warp's store touches 32 sectors)
 *   1 naiveCol: reads columns, writes rows (the loads strided, the stores coalesced)
 *   2 smem:     through a 32x32 shared tile read by columns (32-way bank conflicts)
 *   3 smemPad:  the same tile padded to 33 columns (no conflicts)
 *
 * Usage: ./transpose [kernel] [nx ny] (defaults: 0, 2048 x 2048; the naive kernels use
 * 16x16 blocks, the tiled ones 32x8 blocks that copy four rows each).
 * Under minicuda the elapsed times are the timing model's (docs/timing.md).
 */
#include <cuda_runtime.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/time.h>

#define TILE 32
#define ROWS 8

double seconds()
{
    struct timeval tp;
    gettimeofday(&tp, NULL);
    return ((double)tp.tv_sec + (double)tp.tv_usec * 1.e-6);
}

__global__ void naiveRow(float *out, const float *in, const int nx, const int ny)
{
    unsigned int ix = blockDim.x * blockIdx.x + threadIdx.x;
    unsigned int iy = blockDim.y * blockIdx.y + threadIdx.y;
    if (ix < nx && iy < ny) out[ix * ny + iy] = in[iy * nx + ix];
}

__global__ void naiveCol(float *out, const float *in, const int nx, const int ny)
{
    unsigned int ix = blockDim.x * blockIdx.x + threadIdx.x;
    unsigned int iy = blockDim.y * blockIdx.y + threadIdx.y;
    if (ix < nx && iy < ny) out[iy * nx + ix] = in[ix * ny + iy];
}

template <int PAD>
__global__ void transposeSmem(float *out, const float *in, const int nx, const int ny)
{
    __shared__ float tile[TILE][TILE + PAD];
    int x = blockIdx.x * TILE + threadIdx.x;
    int y = blockIdx.y * TILE + threadIdx.y;
    for (int j = 0; j < TILE; j += ROWS) tile[threadIdx.y + j][threadIdx.x] = in[(y + j) * nx + x];
    __syncthreads();
    x = blockIdx.y * TILE + threadIdx.x;
    y = blockIdx.x * TILE + threadIdx.y;
    for (int j = 0; j < TILE; j += ROWS) out[(y + j) * ny + x] = tile[threadIdx.x][threadIdx.y + j];
}

int main(int argc, char **argv)
{
    int iKernel = argc > 1 ? atoi(argv[1]) : 0;
    int nx = argc > 3 ? atoi(argv[2]) : 1 << 11;
    int ny = argc > 3 ? atoi(argv[3]) : 1 << 11;
    if (iKernel < 0 || iKernel > 3 || nx % TILE || ny % TILE) {
        printf("usage: %s [kernel 0-3] [nx ny, multiples of %d]\n", argv[0], TILE);
        return 1;
    }
    size_t nBytes = (size_t)nx * ny * sizeof(float);
    float *h_A = (float *)malloc(nBytes), *gpuRef = (float *)malloc(nBytes);
    for (int i = 0; i < nx * ny; i++) h_A[i] = (float)(i % 1000);
    float *d_A, *d_C;
    cudaMalloc((void **)&d_A, nBytes);
    cudaMalloc((void **)&d_C, nBytes);
    cudaMemcpy(d_A, h_A, nBytes, cudaMemcpyHostToDevice);

    const char *names[] = {"naiveRow", "naiveCol", "smem", "smemPad"};
    dim3 block = iKernel < 2 ? dim3(16, 16) : dim3(TILE, ROWS);
    dim3 grid = iKernel == 0 ? dim3(nx / 16, ny / 16) : iKernel == 1 ? dim3(ny / 16, nx / 16)
                                                      : dim3(nx / TILE, ny / TILE);
    double iStart = seconds();
    switch (iKernel) {
    case 0: naiveRow<<<grid, block>>>(d_C, d_A, nx, ny); break;
    case 1: naiveCol<<<grid, block>>>(d_C, d_A, ny, nx); break;
    case 2: transposeSmem<0><<<grid, block>>>(d_C, d_A, nx, ny); break;
    case 3: transposeSmem<1><<<grid, block>>>(d_C, d_A, nx, ny); break;
    }
    cudaDeviceSynchronize();
    double iElaps = seconds() - iStart;
    float bandwidth = 2 * nBytes / iElaps / 1e9;
    printf("%s elapsed %f sec <<< grid (%d,%d) block (%d,%d)>>> effective bandwidth %f GB/s\n",
           names[iKernel], iElaps, grid.x, grid.y, block.x, block.y, bandwidth);

    cudaMemcpy(gpuRef, d_C, nBytes, cudaMemcpyDeviceToHost);
    int bad = 0;
    for (int iy = 0; iy < ny; iy++)
        for (int ix = 0; ix < nx; ix += 97)
            bad += gpuRef[ix * ny + iy] != h_A[iy * nx + ix];
    printf("%s\n", bad ? "Arrays do not match." : "Arrays match.");
    cudaFree(d_A);
    cudaFree(d_C);
    free(h_A);
    free(gpuRef);
    return bad != 0;
}
