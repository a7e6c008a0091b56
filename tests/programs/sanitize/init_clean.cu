// Every byte a kernel reads was copied in or written by an earlier kernel: clean.
// expect: initcheck errors=0
// expect: initcheck --track-unused-memory errors=0
// expect: memcheck --leak-check full errors=0
#include <cstdio>

__global__ void fill(int *a, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) a[i] = 3 * i;
}

__global__ void add(const int *a, const int *b, int *c, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) c[i] = a[i] + b[i];
}

int main() {
    const int n = 100;
    int h[n];
    for (int i = 0; i < n; i++) h[i] = i;
    int *a, *b, *c;
    cudaMalloc(&a, n * sizeof(int));
    cudaMalloc(&b, n * sizeof(int));
    cudaMalloc(&c, n * sizeof(int));
    cudaMemcpy(a, h, sizeof h, cudaMemcpyHostToDevice);
    fill<<<4, 32>>>(b, n);
    add<<<4, 32>>>(a, b, c, n);
    cudaMemcpy(h, c, sizeof h, cudaMemcpyDeviceToHost);
    printf("c[99] = %d\n", h[99]);
    cudaFree(a);
    cudaFree(b);
    cudaFree(c);
    return 0;
}
