// A partial cudaMemcpy (the first half) then a kernel reading the whole buffer.
// expect: initcheck errors=32
#include <cstdio>

__global__ void scale(const float *in, float *out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = 2.0f * in[i];
}

int main() {
    const int n = 64;
    float h[n];
    for (int i = 0; i < n; i++) h[i] = i;
    float *in, *out;
    cudaMalloc(&in, n * sizeof(float));
    cudaMalloc(&out, n * sizeof(float));
    cudaMemcpy(in, h, n / 2 * sizeof(float), cudaMemcpyHostToDevice);
    scale<<<2, 32>>>(in, out, n);
    cudaMemcpy(h, out, n / 2 * sizeof(float), cudaMemcpyDeviceToHost);
    printf("h[31] = %g\n", h[31]);
    cudaFree(in);
    cudaFree(out);
    return 0;
}
