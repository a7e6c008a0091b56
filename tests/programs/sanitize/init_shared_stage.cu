// A tile staged through shared memory from a half-copied buffer: only the global
// reads are checked (16 threads read bytes never written).
// expect: initcheck errors=16
#include <cstdio>

__global__ void reverse(const int *in, int *out) {
    __shared__ int tile[32];
    int t = threadIdx.x;
    tile[t] = in[t];
    __syncthreads();
    out[t] = tile[31 - t];
}

int main() {
    int h[32];
    for (int i = 0; i < 32; i++) h[i] = i;
    int *in, *out;
    cudaMalloc(&in, sizeof h);
    cudaMalloc(&out, sizeof h);
    cudaMemcpy(in, h, 16 * sizeof(int), cudaMemcpyHostToDevice);
    reverse<<<1, 32>>>(in, out);
    cudaMemcpy(h, out, sizeof h, cudaMemcpyDeviceToHost);
    printf("ran\n");
    cudaFree(in);
    cudaFree(out);
    return 0;
}
