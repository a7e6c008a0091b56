// A 1D stencil through a shared tile with its halo; `stencilNoSync` forgets the barrier
// between filling the tile and reading the neighbours' cells.
#include <cstdio>
#include <cuda_runtime.h>
#define RADIUS 3
#define BLOCK 128

__global__ void stencilNoSync(const int *in, int *out, int n)
{
    __shared__ int tile[BLOCK + 2 * RADIUS];
    int g = blockIdx.x * blockDim.x + threadIdx.x;
    int l = threadIdx.x + RADIUS;
    tile[l] = in[g];
    if (threadIdx.x < RADIUS) {
        tile[l - RADIUS] = g >= RADIUS ? in[g - RADIUS] : 0;
        tile[l + BLOCK] = g + BLOCK < n ? in[g + BLOCK] : 0;
    }
    int sum = 0;
    for (int o = -RADIUS; o <= RADIUS; o++)
        sum += tile[l + o];
    out[g] = sum;
}

__global__ void stencilSync(const int *in, int *out, int n)
{
    __shared__ int tile[BLOCK + 2 * RADIUS];
    int g = blockIdx.x * blockDim.x + threadIdx.x;
    int l = threadIdx.x + RADIUS;
    tile[l] = in[g];
    if (threadIdx.x < RADIUS) {
        tile[l - RADIUS] = g >= RADIUS ? in[g - RADIUS] : 0;
        tile[l + BLOCK] = g + BLOCK < n ? in[g + BLOCK] : 0;
    }
    __syncthreads();
    int sum = 0;
    for (int o = -RADIUS; o <= RADIUS; o++)
        sum += tile[l + o];
    out[g] = sum;
}

int main(void)
{
    const int n = 4 * BLOCK;
    int h[n], *din, *dout;
    for (int i = 0; i < n; i++) h[i] = i % 7;
    cudaMalloc(&din, n * sizeof(int));
    cudaMalloc(&dout, n * sizeof(int));
    cudaMemcpy(din, h, sizeof(h), cudaMemcpyHostToDevice);
    stencilSync<<<n / BLOCK, BLOCK>>>(din, dout, n);
    cudaMemcpy(h, dout, sizeof(h), cudaMemcpyDeviceToHost);
    printf("synced: out[0]=%d out[127]=%d out[128]=%d out[511]=%d\n", h[0], h[127], h[128], h[511]);
    stencilNoSync<<<n / BLOCK, BLOCK>>>(din, dout, n);
    cudaDeviceSynchronize();
    printf("done: %s\n", cudaGetErrorString(cudaGetLastError()));
    cudaFree(din);
    cudaFree(dout);
    return 0;
}
