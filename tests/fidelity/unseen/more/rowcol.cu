// Summing a matrix's rows with one thread per row (each warp reads 32 rows apart: strided)
// against one thread per column (each warp reads one row's consecutive floats: coalesced).
#include <cstdio>
#include <cuda_runtime.h>
#define N 1024

__global__ void sumRows(const float *m, float *out)
{
    int r = blockIdx.x * blockDim.x + threadIdx.x;
    float s = 0;
    for (int c = 0; c < N; c++) s += m[r * N + c];
    out[r] = s;
}

__global__ void sumCols(const float *m, float *out)
{
    int c = blockIdx.x * blockDim.x + threadIdx.x;
    float s = 0;
    for (int r = 0; r < N; r++) s += m[r * N + c];
    out[c] = s;
}

int main(void)
{
    float *h = (float *)malloc(N * N * sizeof(float)), *dm, *dout, o[N];
    for (int i = 0; i < N * N; i++) h[i] = (i % 13) * 0.25f;
    cudaMalloc(&dm, N * N * sizeof(float));
    cudaMalloc(&dout, N * sizeof(float));
    cudaMemcpy(dm, h, N * N * sizeof(float), cudaMemcpyHostToDevice);
    cudaEvent_t a, b, c;
    cudaEventCreate(&a); cudaEventCreate(&b); cudaEventCreate(&c);
    cudaEventRecord(a);
    sumRows<<<N / 128, 128>>>(dm, dout);
    cudaEventRecord(b);
    cudaMemcpy(o, dout, sizeof(o), cudaMemcpyDeviceToHost);
    printf("rows: %.2f %.2f\n", o[0], o[N - 1]);
    cudaEventRecord(b);
    sumCols<<<N / 128, 128>>>(dm, dout);
    cudaEventRecord(c);
    cudaEventSynchronize(c);
    cudaMemcpy(o, dout, sizeof(o), cudaMemcpyDeviceToHost);
    printf("cols: %.2f %.2f\n", o[0], o[N - 1]);
    free(h);
    return 0;
}
