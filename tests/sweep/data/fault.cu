#include <cstdio>
__global__ void poke(int *p) { p[threadIdx.x + (1 << 28)] = 1; }
int main() {
    int *d;
    cudaMalloc(&d, 32 * sizeof(int));
    poke<<<1, 32>>>(d);
    cudaError_t e = cudaDeviceSynchronize();
    printf("%s\n", cudaGetErrorString(e));
    return e == cudaSuccess ? 0 : 1;
}
