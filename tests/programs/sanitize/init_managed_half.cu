// cudaMallocManaged memory of which the host writes only half, read whole by a kernel:
// the 16 threads reading what the host never wrote are reported.
// expect: initcheck errors=16
#include <cstdio>

__global__ void total(const int *a, int *sum, int n) {
    int i = threadIdx.x;
    if (i < n) atomicAdd(sum, a[i]);
}

int main() {
    const int n = 32;
    int *a, *sum;
    cudaMallocManaged(&a, n * sizeof(int));
    cudaMallocManaged(&sum, sizeof(int));
    for (int i = 0; i < n / 2; i++) a[i] = 1;
    *sum = 0;
    total<<<1, n>>>(a, sum, n);
    cudaDeviceSynchronize();
    printf("ran\n");
    cudaFree(a);
    cudaFree(sum);
    return 0;
}
