// A managed buffer and a device buffer left allocated at exit.
// expect: memcheck --leak-check full errors=2
#include <cstdio>

int main() {
    int *m, *d;
    cudaMallocManaged(&m, 128 * sizeof(int));
    cudaMalloc(&d, 64);
    m[0] = 1;
    printf("m[0] = %d\n", m[0]);
    return 0;
}
