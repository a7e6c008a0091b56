// A buffer of which a quarter is never written nor read, and one never touched.
// expect: initcheck errors=0
// expect: initcheck --track-unused-memory errors=2
#include <cstdio>

__global__ void twice(const int *in, int *out, int n) {
    int i = threadIdx.x;
    if (i < n) out[i] = 2 * in[i];
}

int main() {
    const int n = 48;
    int h[64];
    for (int i = 0; i < 64; i++) h[i] = i;
    int *in, *out, *spare;
    cudaMalloc(&in, 64 * sizeof(int));
    cudaMalloc(&out, 64 * sizeof(int));
    cudaMalloc(&spare, 256);
    cudaMemcpy(in, h, n * sizeof(int), cudaMemcpyHostToDevice);
    cudaMemset(out, 0, 64 * sizeof(int));
    twice<<<1, 64>>>(in, out, n);
    cudaMemcpy(h, out, sizeof h, cudaMemcpyDeviceToHost);
    printf("h[47] = %d\n", h[47]);
    cudaFree(in);
    cudaFree(out);
    cudaFree(spare);
    return 0;
}
