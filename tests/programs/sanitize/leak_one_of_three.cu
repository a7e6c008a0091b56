// Three device buffers, the middle one never freed.
// expect: memcheck --leak-check full errors=1
#include <cstdio>

int main() {
    float *a, *b, *c;
    cudaMalloc(&a, 1024);
    cudaMalloc(&b, 4096);
    cudaMalloc(&c, 256);
    cudaMemset(b, 0, 4096);
    cudaFree(a);
    cudaFree(c);
    printf("done\n");
    return 0;
}
