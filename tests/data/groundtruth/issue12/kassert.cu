#include <stdio.h>
#include <assert.h>
__global__ void k(int *p) { int x = p[threadIdx.x]; assert(x != 3); p[threadIdx.x] = x + 1; }
int main() {
    int h[64]; for (int i = 0; i < 64; i++) h[i] = i % 8;
    int *d; cudaMalloc(&d, sizeof h); cudaMemcpy(d, h, sizeof h, cudaMemcpyHostToDevice);
    k<<<2, 32>>>(d);
    cudaError_t e = cudaDeviceSynchronize();
    printf("sync %s \"%s\"\n", cudaGetErrorName(e), cudaGetErrorString(e));
    printf("last %s\n", cudaGetErrorName(cudaGetLastError()));
    printf("memcpy %s\n", cudaGetErrorName(cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost)));
    printf("malloc %s\n", cudaGetErrorName(cudaMalloc(&d, 16)));
    return 0;
}
