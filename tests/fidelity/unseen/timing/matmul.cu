// C = A x B for 64x64 floats, 16x16 threads a block: every thread reads its row of A and
// column of B from global memory (naive), or the block stages 16x16 tiles of both in
// shared memory (tiled).
#include <cstdio>
#include <cuda_runtime.h>
#define N 64
#define TILE 16

__global__ void matmulNaive(const float *a, const float *b, float *c)
{
    int row = blockIdx.y * TILE + threadIdx.y, col = blockIdx.x * TILE + threadIdx.x;
    float s = 0.0f;
    for (int k = 0; k < N; k++) s += a[row * N + k] * b[k * N + col];
    c[row * N + col] = s;
}

__global__ void matmulTiled(const float *a, const float *b, float *c)
{
    __shared__ float ta[TILE][TILE], tb[TILE][TILE];
    int tx = threadIdx.x, ty = threadIdx.y;
    int row = blockIdx.y * TILE + ty, col = blockIdx.x * TILE + tx;
    float s = 0.0f;
    for (int t = 0; t < N / TILE; t++) {
        ta[ty][tx] = a[row * N + t * TILE + tx];
        tb[ty][tx] = b[(t * TILE + ty) * N + col];
        __syncthreads();
        for (int k = 0; k < TILE; k++) s += ta[ty][k] * tb[k][tx];
        __syncthreads();
    }
    c[row * N + col] = s;
}

int main(void)
{
    size_t bytes = N * N * sizeof(float);
    float *ha = (float *)malloc(bytes), *hb = (float *)malloc(bytes), *hc = (float *)malloc(bytes);
    float *da, *db, *dc;
    for (int i = 0; i < N * N; i++) {
        ha[i] = (i % 7) * 0.5f;
        hb[i] = (i % 5) * 0.25f;
    }
    cudaMalloc(&da, bytes); cudaMalloc(&db, bytes); cudaMalloc(&dc, bytes);
    cudaMemcpy(da, ha, bytes, cudaMemcpyHostToDevice);
    cudaMemcpy(db, hb, bytes, cudaMemcpyHostToDevice);
    dim3 block(TILE, TILE), grid(N / TILE, N / TILE);
    matmulNaive<<<grid, block>>>(da, db, dc);
    cudaMemcpy(hc, dc, bytes, cudaMemcpyDeviceToHost);
    printf("naive: %.2f %.2f\n", hc[0], hc[N * N - 1]);
    matmulTiled<<<grid, block>>>(da, db, dc);
    cudaMemcpy(hc, dc, bytes, cudaMemcpyDeviceToHost);
    printf("tiled: %.2f %.2f\n", hc[0], hc[N * N - 1]);
    free(ha); free(hb); free(hc);
    return 0;
}
