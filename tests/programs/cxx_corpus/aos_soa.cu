// Array of structures against structure of arrays (the textbook's global-memory
// chapter), plus a device function returning a struct by value.
#include <stdio.h>
#include <stdlib.h>
#include "common.h"

#define LEN (1 << 11)

struct innerStruct {
    float x;
    float y;
};

struct innerArray {
    float x[LEN];
    float y[LEN];
};

__device__ innerStruct update(innerStruct s)
{
    innerStruct r;
    r.x = s.x + 10.f;
    r.y = s.y + 20.f;
    return r;
}

__global__ void testInnerStruct(innerStruct *data, innerStruct *result, const int n)
{
    unsigned int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) result[i] = update(data[i]);
}

__global__ void testInnerArray(innerArray *data, innerArray *result, const int n)
{
    unsigned int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        float tmpx = data->x[i];
        float tmpy = data->y[i];
        tmpx += 10.f;
        tmpy += 20.f;
        result->x[i] = tmpx;
        result->y[i] = tmpy;
    }
}

int main(int argc, char **argv)
{
    int nElem = LEN;
    size_t nBytes = nElem * sizeof(innerStruct);
    innerStruct *h_A = (innerStruct *)malloc(nBytes);
    innerStruct *gpuRef = (innerStruct *)malloc(nBytes);
    for (int i = 0; i < nElem; i++) {
        h_A[i].x = (float)(i & 0xFF) / 4.0f;
        h_A[i].y = (float)((i * 3) & 0xFF) / 8.0f;
    }
    innerStruct *d_A, *d_C;
    CHECK(cudaMalloc((innerStruct **)&d_A, nBytes));
    CHECK(cudaMalloc((innerStruct **)&d_C, nBytes));
    CHECK(cudaMemcpy(d_A, h_A, nBytes, cudaMemcpyHostToDevice));
    int blocksize = 128;
    dim3 block(blocksize, 1);
    dim3 grid((nElem + block.x - 1) / block.x, 1);
    double iStart = seconds();
    testInnerStruct<<<grid, block>>>(d_A, d_C, nElem);
    CHECK(cudaDeviceSynchronize());
    double iElaps = seconds() - iStart;
    CHECK(cudaMemcpy(gpuRef, d_C, nBytes, cudaMemcpyDeviceToHost));
    printf("innerStruct <<< %3d, %3d >>> elapsed %f sec\n", grid.x, block.x, iElaps);
    int ok = 1;
    for (int i = 0; i < nElem; i++)
        if (gpuRef[i].x != h_A[i].x + 10.f || gpuRef[i].y != h_A[i].y + 20.f) ok = 0;
    printf("AoS result %s, [5] = (%.3f, %.3f)\n", ok ? "matches" : "differs", gpuRef[5].x, gpuRef[5].y);

    innerArray *h_S = (innerArray *)malloc(sizeof(innerArray));
    innerArray *h_R = (innerArray *)malloc(sizeof(innerArray));
    for (int i = 0; i < nElem; i++) {
        h_S->x[i] = h_A[i].x;
        h_S->y[i] = h_A[i].y;
    }
    innerArray *d_S, *d_R;
    CHECK(cudaMalloc((innerArray **)&d_S, sizeof(innerArray)));
    CHECK(cudaMalloc((innerArray **)&d_R, sizeof(innerArray)));
    CHECK(cudaMemcpy(d_S, h_S, sizeof(innerArray), cudaMemcpyHostToDevice));
    testInnerArray<<<grid, block>>>(d_S, d_R, nElem);
    CHECK(cudaMemcpy(h_R, d_R, sizeof(innerArray), cudaMemcpyDeviceToHost));
    ok = 1;
    for (int i = 0; i < nElem; i++)
        if (h_R->x[i] != gpuRef[i].x || h_R->y[i] != gpuRef[i].y) ok = 0;
    printf("SoA result %s, [2047] = (%.3f, %.3f)\n", ok ? "matches" : "differs", h_R->x[2047], h_R->y[2047]);
    CHECK(cudaFree(d_A));
    CHECK(cudaFree(d_C));
    CHECK(cudaFree(d_S));
    CHECK(cudaFree(d_R));
    free(h_A);
    free(gpuRef);
    free(h_S);
    free(h_R);
    CHECK(cudaDeviceReset());
    return EXIT_SUCCESS;
}
