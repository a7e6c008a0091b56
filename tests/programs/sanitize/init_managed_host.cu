// cudaMallocManaged memory written by the host, then read by a kernel: clean.
// expect: initcheck errors=0
// expect: memcheck --leak-check full errors=0
#include <cstdio>

__global__ void square(int *a, int n) {
    int i = threadIdx.x;
    if (i < n) a[i] = a[i] * a[i];
}

int main() {
    const int n = 32;
    int *a;
    cudaMallocManaged(&a, n * sizeof(int));
    for (int i = 0; i < n; i++) a[i] = i;
    square<<<1, n>>>(a, n);
    cudaDeviceSynchronize();
    printf("a[5] = %d\n", a[5]);
    cudaFree(a);
    return 0;
}
