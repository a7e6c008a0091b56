// A kernel's malloc/free use the device heap (they gave host memory, which the kernel
// could not touch); each thread's block is its own.
#include <cstdio>

__global__ void per_thread(int *out) {
    int *mine = (int *)malloc(3 * sizeof(int));
    for (int i = 0; i < 3; i++) mine[i] = threadIdx.x + i;
    out[threadIdx.x] = mine[0] + mine[1] + mine[2];
    free(mine);
}

int main() {
    int *d, h[4];
    cudaMalloc(&d, sizeof(h));
    per_thread<<<1, 4>>>(d);
    cudaError_t err = cudaMemcpy(h, d, sizeof(h), cudaMemcpyDeviceToHost);
    printf("%s: %d %d %d %d\n", cudaGetErrorString(err), h[0], h[1], h[2], h[3]);
    cudaFree(d);
    return 0;
}
