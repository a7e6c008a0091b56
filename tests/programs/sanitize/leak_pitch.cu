// A pitched 2D buffer and a device buffer, neither freed, from a helper function.
// expect: memcheck --leak-check full errors=2
#include <cstdio>

float *make(size_t *pitch) {
    float *m;
    cudaMallocPitch(&m, pitch, 10 * sizeof(float), 10);
    return m;
}

int main() {
    size_t pitch;
    float *m = make(&pitch);
    int *d;
    cudaMalloc(&d, 100);
    cudaMemset2D(m, pitch, 0, 10 * sizeof(float), 10);
    printf("pitch ok: %d\n", pitch >= 40);
    return 0;
}
