// Every allocation is freed, device and host memory both: no leak.
// expect: memcheck --leak-check full errors=0
#include <cstdio>
#include <cstdlib>

__global__ void inc(int *a) { a[threadIdx.x] += 1; }

int main() {
    int *h = (int *)malloc(32 * sizeof(int));
    for (int i = 0; i < 32; i++) h[i] = i;
    int *a, *b;
    cudaMalloc(&a, 32 * sizeof(int));
    cudaMallocHost(&b, 32 * sizeof(int));
    cudaMemcpy(a, h, 32 * sizeof(int), cudaMemcpyHostToDevice);
    inc<<<1, 32>>>(a);
    cudaMemcpy(b, a, 32 * sizeof(int), cudaMemcpyDeviceToHost);
    printf("b[31] = %d\n", b[31]);
    cudaFree(a);
    cudaFreeHost(b);
    free(h);
    return 0;
}
