// A leak found at cudaDeviceReset rather than at exit.
// expect: memcheck --leak-check full errors=1
#include <cstdio>

int main() {
    int *d;
    cudaMalloc(&d, 512);
    cudaMemset(d, 0, 512);
    cudaDeviceReset();
    printf("reset\n");
    return 0;
}
