// A kernel accumulating into an output buffer nobody cleared (out[i] += ...).
// expect: initcheck errors=48
#include <cstdio>

__global__ void accumulate(const int *in, int *out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] += in[i];
}

int main() {
    const int n = 48;
    int h[n];
    for (int i = 0; i < n; i++) h[i] = i;
    int *in, *out;
    cudaMalloc(&in, n * sizeof(int));
    cudaMalloc(&out, n * sizeof(int));
    cudaMemcpy(in, h, sizeof h, cudaMemcpyHostToDevice);
    accumulate<<<2, 32>>>(in, out, n);
    cudaMemcpy(h, out, sizeof h, cudaMemcpyDeviceToHost);
    printf("ran\n");
    cudaFree(in);
    cudaFree(out);
    return 0;
}
