// cudaMemset of half a buffer, then a kernel summing every element.
// expect: initcheck errors=32
#include <cstdio>

__global__ void sum(const int *a, int *total, int n) {
    int i = threadIdx.x;
    if (i < n) atomicAdd(total, a[i]);
}

int main() {
    const int n = 64;
    int *a, *total;
    cudaMalloc(&a, n * sizeof(int));
    cudaMalloc(&total, sizeof(int));
    cudaMemset(a, 0, n / 2 * sizeof(int));
    cudaMemset(total, 0, sizeof(int));
    sum<<<1, n>>>(a, total, n / 2 * 2);
    int t;
    cudaMemcpy(&t, total, sizeof(int), cudaMemcpyDeviceToHost);
    printf("done\n");
    cudaFree(a);
    cudaFree(total);
    return 0;
}
