// A buffer allocated on each pass of a loop and never freed: four leaks.
// expect: memcheck --leak-check full errors=4
#include <cstdio>

__global__ void set(int *a, int v) { a[threadIdx.x] = v; }

int main() {
    int sum = 0;
    for (int pass = 0; pass < 4; pass++) {
        int *a;
        cudaMalloc(&a, 32 * sizeof(int));
        set<<<1, 32>>>(a, pass);
        int h;
        cudaMemcpy(&h, a, sizeof h, cudaMemcpyDeviceToHost);
        sum += h;
    }
    printf("sum = %d\n", sum);
    return 0;
}
