// atomicAdd on a counter no one cleared: the atomic reads uninitialised memory.
// expect: initcheck errors=2
#include <cstdio>

__global__ void count(int *counter) {
    atomicAdd(counter, 1);
}

int main() {
    int *counter;
    cudaMalloc(&counter, sizeof(int));
    count<<<2, 32>>>(counter);
    int h;
    cudaMemcpy(&h, counter, sizeof h, cudaMemcpyDeviceToHost);
    printf("ran\n");
    cudaFree(counter);
    return 0;
}
