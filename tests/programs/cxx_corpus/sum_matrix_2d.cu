// Matrix addition with a 2D grid and 2D blocks over a few block shapes (the textbook's
// sumMatrixOnGPU2D), timing with a gettimeofday-based seconds().
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "common.h"

void sumMatrixOnHost(float *A, float *B, float *C, const int nx, const int ny)
{
    float *ia = A, *ib = B, *ic = C;
    for (int iy = 0; iy < ny; iy++) {
        for (int ix = 0; ix < nx; ix++) ic[ix] = ia[ix] + ib[ix];
        ia += nx;
        ib += nx;
        ic += nx;
    }
}

__global__ void sumMatrixOnGPU2D(float *MatA, float *MatB, float *MatC, int nx, int ny)
{
    unsigned int ix = threadIdx.x + blockIdx.x * blockDim.x;
    unsigned int iy = threadIdx.y + blockIdx.y * blockDim.y;
    unsigned int idx = iy * nx + ix;
    if (ix < nx && iy < ny) MatC[idx] = MatA[idx] + MatB[idx];
}

int main(int argc, char **argv)
{
    int nx = 1 << 6, ny = 1 << 6;
    int nxy = nx * ny;
    int nBytes = nxy * sizeof(float);
    printf("Matrix size: nx %d ny %d\n", nx, ny);
    float *h_A = (float *)malloc(nBytes);
    float *h_B = (float *)malloc(nBytes);
    float *hostRef = (float *)malloc(nBytes);
    float *gpuRef = (float *)malloc(nBytes);
    initialData(h_A, nxy, 7);
    initialData(h_B, nxy, 8);
    sumMatrixOnHost(h_A, h_B, hostRef, nx, ny);

    float *d_MatA, *d_MatB, *d_MatC;
    CHECK(cudaMalloc((void **)&d_MatA, nBytes));
    CHECK(cudaMalloc((void **)&d_MatB, nBytes));
    CHECK(cudaMalloc((void **)&d_MatC, nBytes));
    CHECK(cudaMemcpy(d_MatA, h_A, nBytes, cudaMemcpyHostToDevice));
    CHECK(cudaMemcpy(d_MatB, h_B, nBytes, cudaMemcpyHostToDevice));

    int shapes[3][2] = {{32, 32}, {32, 16}, {16, 8}};
    for (int s = 0; s < 3; s++) {
        dim3 block(shapes[s][0], shapes[s][1]);
        dim3 grid((nx + block.x - 1) / block.x, (ny + block.y - 1) / block.y);
        CHECK(cudaMemset(d_MatC, 0, nBytes));
        double iStart = seconds();
        sumMatrixOnGPU2D<<<grid, block>>>(d_MatA, d_MatB, d_MatC, nx, ny);
        CHECK(cudaDeviceSynchronize());
        double iElaps = seconds() - iStart;
        printf("sumMatrixOnGPU2D <<<(%d,%d), (%d,%d)>>> elapsed %f ms\n", grid.x, grid.y, block.x, block.y,
               iElaps * 1000);
        CHECK(cudaMemcpy(gpuRef, d_MatC, nBytes, cudaMemcpyDeviceToHost));
        checkResult(hostRef, gpuRef, nxy);
    }
    CHECK(cudaFree(d_MatA));
    CHECK(cudaFree(d_MatB));
    CHECK(cudaFree(d_MatC));
    free(h_A);
    free(h_B);
    free(hostRef);
    free(gpuRef);
    CHECK(cudaDeviceReset());
    return 0;
}
