// Matrix transpose: naive, shared tile, shared tile padded (the book's chapter 5 style).
#include <cstdio>
#include <cstdlib>
#define TILE 32
#define ROWS 8

__global__ void transposeNaive(float *out, const float *in, int n) {
    int x = blockIdx.x * TILE + threadIdx.x, y = blockIdx.y * TILE + threadIdx.y;
    for (int j = 0; j < TILE; j += ROWS) out[x * n + (y + j)] = in[(y + j) * n + x];
}

template <int PAD>
__global__ void transposeTile(float *out, const float *in, int n) {
    __shared__ float tile[TILE][TILE + PAD];
    int x = blockIdx.x * TILE + threadIdx.x, y = blockIdx.y * TILE + threadIdx.y;
    for (int j = 0; j < TILE; j += ROWS) tile[threadIdx.y + j][threadIdx.x] = in[(y + j) * n + x];
    __syncthreads();
    x = blockIdx.y * TILE + threadIdx.x;
    y = blockIdx.x * TILE + threadIdx.y;
    for (int j = 0; j < TILE; j += ROWS) out[(y + j) * n + x] = tile[threadIdx.x][threadIdx.y + j];
}

int check(const float *a, const float *b, int n) {
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++)
            if (a[i * n + j] != b[j * n + i]) { printf("mismatch at %d,%d\n", i, j); return 0; }
    return 1;
}

int main() {
    const int n = 256;
    size_t bytes = n * n * sizeof(float);
    float *h = (float *)malloc(bytes), *r = (float *)malloc(bytes);
    for (int i = 0; i < n * n; i++) h[i] = (float)(i % 1000) * 0.5f;
    float *d_in, *d_out;
    cudaMalloc(&d_in, bytes); cudaMalloc(&d_out, bytes);
    cudaMemcpy(d_in, h, bytes, cudaMemcpyHostToDevice);
    dim3 grid(n / TILE, n / TILE), block(TILE, ROWS);
    transposeNaive<<<grid, block>>>(d_out, d_in, n);
    cudaMemcpy(r, d_out, bytes, cudaMemcpyDeviceToHost);
    printf("naive: %s\n", check(h, r, n) ? "ok" : "FAIL");
    cudaMemset(d_out, 0, bytes);
    transposeTile<0><<<grid, block>>>(d_out, d_in, n);
    cudaMemcpy(r, d_out, bytes, cudaMemcpyDeviceToHost);
    printf("tile: %s\n", check(h, r, n) ? "ok" : "FAIL");
    cudaMemset(d_out, 0, bytes);
    transposeTile<1><<<grid, block>>>(d_out, d_in, n);
    cudaMemcpy(r, d_out, bytes, cudaMemcpyDeviceToHost);
    printf("padded: %s\n", check(h, r, n) ? "ok" : "FAIL");
    printf("%s\n", cudaGetErrorString(cudaGetLastError()));
    cudaFree(d_in); cudaFree(d_out); free(h); free(r);
    return 0;
}
