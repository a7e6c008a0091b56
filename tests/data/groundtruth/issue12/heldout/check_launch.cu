#include <stdio.h>
#include <stdlib.h>
#define CHECK(call)                                                        \
{                                                                          \
    const cudaError_t error = call;                                        \
    if (error != cudaSuccess)                                              \
    {                                                                      \
        printf("Error: %s:%d, ", __FILE__, __LINE__);                      \
        printf("code:%d, reason: %s\n", error, cudaGetErrorString(error)); \
        exit(1);                                                           \
    }                                                                      \
}
__global__ void sumArraysOnGPU(float *A, float *B, float *C, const int N)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < N) C[i] = A[i] + B[i];
}
int main(int argc, char **argv)
{
    int nElem = 1 << 12;
    size_t nBytes = nElem * sizeof(float);
    float *d_A, *d_B, *d_C;
    CHECK(cudaMalloc((float**)&d_A, nBytes));
    CHECK(cudaMalloc((float**)&d_B, nBytes));
    CHECK(cudaMalloc((float**)&d_C, nBytes));
    int iLen = argc > 1 ? atoi(argv[1]) : 2048;
    dim3 block (iLen);
    dim3 grid  ((nElem + block.x - 1) / block.x);
    sumArraysOnGPU<<<grid, block>>>(d_A, d_B, d_C, nElem);
    printf("sumArraysOnGPU <<<%d, %d>>>\n", grid.x, block.x);
    CHECK(cudaGetLastError());
    CHECK(cudaDeviceSynchronize());
    printf("done\n");
    return 0;
}
