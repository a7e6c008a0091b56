// minicuda-run: -rdc=true
// A kernel that launches itself from its first thread with half the threads, one level
// deeper each time, until a single thread is left (the book's nestedHelloWorld shape).
// Each grid prints all of its lines before its child starts (the child runs after its
// parent's launching block), so the output goes level by level:
// 8 lines at depth 0, the "nested" line, 4 at depth 1, ..., 1 at depth 3.
#include <cstdio>
#include <cuda_runtime.h>

__global__ void greet(int const width, int level) {
    int t = threadIdx.x;
    printf("Recursion=%d: Hello World from thread %d block %d\n", level, t, blockIdx.x);
    if (width == 1) return;
    int half = width >> 1;
    if (t == 0 && half > 0) {
        greet<<<1, half>>>(half, ++level);
        printf("-------> nested execution depth: %d\n", level);
    }
}

int main() {
    int width = 8;
    printf("Execution Configuration: grid 1 block %d\n", width);
    greet<<<1, width>>>(width, 0);
    cudaError_t err = cudaDeviceSynchronize();
    printf("synchronize: %s\n", cudaGetErrorString(err));
    return 0;
}
