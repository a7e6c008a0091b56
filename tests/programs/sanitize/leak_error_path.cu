// A function that returns early on an error path without freeing its scratch buffer;
// the caller frees what it gets back. Called three times, failing twice: two leaks.
// expect: memcheck --leak-check full errors=2
#include <cstdio>

__global__ void negate(int *a, int n) {
    int i = threadIdx.x;
    if (i < n) a[i] = -a[i];
}

int *work(int n) {
    int *scratch, *result;
    cudaMalloc(&scratch, 64 * sizeof(int));
    if (n > 64) return NULL;   // the error path forgets scratch
    cudaMalloc(&result, n * sizeof(int));
    cudaMemset(result, 0, n * sizeof(int));
    negate<<<1, 64>>>(result, n);
    cudaFree(scratch);
    return result;
}

int main() {
    int sizes[3] = {16, 100, 200};
    for (int k = 0; k < 3; k++) {
        int *r = work(sizes[k]);
        printf("n = %d: %s\n", sizes[k], r ? "ok" : "too large");
        if (r) cudaFree(r);
    }
    return 0;
}
