// Matrix transpose: naive, through a shared-memory tile, and through a padded tile that
// avoids bank conflicts (the textbook's chapter on shared memory), all checked.
#include <stdio.h>
#include <stdlib.h>
#include "common.h"

#define TILE_DIM 16
#define BLOCK_ROWS 8

__global__ void transposeNaive(float *odata, const float *idata, int width, int height)
{
    int x = blockIdx.x * TILE_DIM + threadIdx.x;
    int y = blockIdx.y * TILE_DIM + threadIdx.y;
    for (int j = 0; j < TILE_DIM; j += BLOCK_ROWS)
        if (x < width && y + j < height) odata[x * height + (y + j)] = idata[(y + j) * width + x];
}

template <int PAD>
__global__ void transposeTile(float *odata, const float *idata, int width, int height)
{
    __shared__ float tile[TILE_DIM][TILE_DIM + PAD];
    int x = blockIdx.x * TILE_DIM + threadIdx.x;
    int y = blockIdx.y * TILE_DIM + threadIdx.y;
    for (int j = 0; j < TILE_DIM; j += BLOCK_ROWS)
        if (x < width && y + j < height) tile[threadIdx.y + j][threadIdx.x] = idata[(y + j) * width + x];
    __syncthreads();
    x = blockIdx.y * TILE_DIM + threadIdx.x;
    y = blockIdx.x * TILE_DIM + threadIdx.y;
    for (int j = 0; j < TILE_DIM; j += BLOCK_ROWS)
        if (x < height && y + j < width) odata[(y + j) * height + x] = tile[threadIdx.x][threadIdx.y + j];
}

int main(void)
{
    const int width = 80, height = 48;
    const int n = width * height;
    float *h = (float *)malloc(n * sizeof(float));
    float *ref = (float *)malloc(n * sizeof(float));
    float *res = (float *)malloc(n * sizeof(float));
    for (int i = 0; i < n; i++) h[i] = (float)i;
    for (int y = 0; y < height; y++)
        for (int x = 0; x < width; x++) ref[x * height + y] = h[y * width + x];

    float *d_in, *d_out;
    CHECK(cudaMalloc(&d_in, n * sizeof(float)));
    CHECK(cudaMalloc(&d_out, n * sizeof(float)));
    CHECK(cudaMemcpy(d_in, h, n * sizeof(float), cudaMemcpyHostToDevice));
    dim3 block(TILE_DIM, BLOCK_ROWS);
    dim3 grid((width + TILE_DIM - 1) / TILE_DIM, (height + TILE_DIM - 1) / TILE_DIM);

    const char *names[3] = {"naive", "shared", "shared+pad"};
    for (int k = 0; k < 3; k++) {
        CHECK(cudaMemset(d_out, 0, n * sizeof(float)));
        if (k == 0) transposeNaive<<<grid, block>>>(d_out, d_in, width, height);
        if (k == 1) transposeTile<0><<<grid, block>>>(d_out, d_in, width, height);
        if (k == 2) transposeTile<1><<<grid, block>>>(d_out, d_in, width, height);
        CHECK(cudaGetLastError());
        CHECK(cudaMemcpy(res, d_out, n * sizeof(float), cudaMemcpyDeviceToHost));
        printf("%-10s grid (%d,%d) block (%d,%d): ", names[k], grid.x, grid.y, block.x, block.y);
        checkResult(ref, res, n);
    }
    printf("out[1]=%.0f out[48]=%.0f out[last]=%.0f\n", res[1], res[48], res[n - 1]);
    CHECK(cudaFree(d_in));
    CHECK(cudaFree(d_out));
    free(h);
    free(ref);
    free(res);
    return 0;
}
