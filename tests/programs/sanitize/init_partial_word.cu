// A kernel writes the low 16 bits of each word, another reads whole words: each read
// takes two bytes never written.
// expect: initcheck errors=32
#include <cstdio>

__global__ void low_halves(unsigned short *h) { h[2 * threadIdx.x] = threadIdx.x; }

__global__ void words(const unsigned *w, unsigned *out) { out[threadIdx.x] = w[threadIdx.x] & 0xFFFF; }

int main() {
    unsigned *w, *out;
    cudaMalloc(&w, 32 * sizeof(unsigned));
    cudaMalloc(&out, 32 * sizeof(unsigned));
    low_halves<<<1, 32>>>((unsigned short *)w);
    words<<<1, 32>>>(w, out);
    unsigned h[32];
    cudaMemcpy(h, out, sizeof h, cudaMemcpyDeviceToHost);
    printf("h[7] = %u\n", h[7]);
    cudaFree(w);
    cudaFree(out);
    return 0;
}
