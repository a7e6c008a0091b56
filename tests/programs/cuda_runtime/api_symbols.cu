// __device__, __constant__ and __managed__ variables from the host: cudaGetSymbolAddress
// gives a pointer a kernel argument can carry, cudaGetSymbolSize the variable's size, and
// cudaMemcpyToSymbol / cudaMemcpyFromSymbol copy with an offset.
// Kernel: table[i] = coeff[i % 4] * i + bias, with coeff = {1, 2, 3, 4}, bias = 100.
#include <cstdio>
#include <cuda_runtime.h>

__device__ int table[16];
__constant__ int coeff[4];
__managed__ int bias = 100;

__global__ void fill(int *t) {
    int i = threadIdx.x;
    t[i] = coeff[i % 4] * i + bias;
}

__global__ void addBias() { bias += 5; }

int main() {
    int h[4] = {1, 2, 3, 4};
    cudaMemcpyToSymbol(coeff, h, sizeof(h));
    int *t;
    cudaGetSymbolAddress((void **)&t, table);
    size_t tableSize, coeffSize;
    cudaGetSymbolSize(&tableSize, table);
    cudaGetSymbolSize(&coeffSize, coeff);
    printf("sizes: table %zu, coeff %zu\n", tableSize, coeffSize);
    fill<<<1, 16>>>(t);
    int out[16];
    cudaMemcpyFromSymbol(out, table, sizeof(out));
    for (int i = 0; i < 16; i++) printf("%d%c", out[i], i == 15 ? '\n' : ' ');
    int tail[4];
    cudaMemcpyFromSymbol(tail, table, sizeof(tail), 12 * sizeof(int), cudaMemcpyDeviceToHost);
    printf("tail: %d %d %d %d\n", tail[0], tail[1], tail[2], tail[3]);
    int two = 20;
    cudaMemcpyToSymbol(coeff, &two, sizeof(int), sizeof(int));
    fill<<<1, 16>>>(t);
    cudaMemcpy(out, t, sizeof(out), cudaMemcpyDeviceToHost);
    printf("with coeff[1] = 20: out[1]=%d out[5]=%d out[6]=%d\n", out[1], out[5], out[6]);
    addBias<<<1, 1>>>();
    cudaDeviceSynchronize();
    bias *= 2;
    addBias<<<1, 1>>>();
    cudaDeviceSynchronize();
    printf("managed bias: %d\n", bias);
    return 0;
}
