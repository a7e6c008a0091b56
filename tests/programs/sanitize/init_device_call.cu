// A recursive device function (a call the inliner leaves) reads a buffer of which only
// the first 8 elements were copied in: thread t reads a[t..t+2], so thread 6 reads a[8]
// and thread 7 a[8] and a[9], never set: three reports, from inside the callee.
// expect: initcheck errors=3
#include <cstdio>

__device__ int walk(const int *a, int i, int depth) {
    if (depth == 0) return 0;
    return a[i] + walk(a, i + 1, depth - 1);
}

__global__ void sums(const int *a, int *out) {
    int t = threadIdx.x;
    out[t] = walk(a, t, 3);
}

int main() {
    int h[16];
    for (int i = 0; i < 16; i++) h[i] = i;
    int *a, *out;
    cudaMalloc(&a, 16 * sizeof(int));
    cudaMalloc(&out, 8 * sizeof(int));
    cudaMemcpy(a, h, 8 * sizeof(int), cudaMemcpyHostToDevice);
    sums<<<1, 8>>>(a, out);
    cudaMemcpy(h, out, 8 * sizeof(int), cudaMemcpyDeviceToHost);
    printf("out[0] = %d\n", h[0]);
    cudaFree(a);
    cudaFree(out);
    return 0;
}
