// Scaling the x of 12-byte particles: as an array of structs, and as a separate array.
#include <cstdio>
#include <cuda_runtime.h>

struct P { float x, y, z; };

__global__ void scaleAoS(P *p, int n, float k)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) p[i].x *= k;
}

__global__ void scaleSoA(float *x, int n, float k)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) x[i] *= k;
}

int main(void)
{
    const int n = 1 << 16;
    P *hp = (P *)malloc(n * sizeof(P)), *dp;
    float *hx = (float *)malloc(n * sizeof(float)), *dx;
    for (int i = 0; i < n; i++) { hp[i].x = hx[i] = i; hp[i].y = hp[i].z = 1; }
    cudaMalloc(&dp, n * sizeof(P));
    cudaMalloc(&dx, n * sizeof(float));
    cudaMemcpy(dp, hp, n * sizeof(P), cudaMemcpyHostToDevice);
    cudaMemcpy(dx, hx, n * sizeof(float), cudaMemcpyHostToDevice);
    scaleAoS<<<n / 256, 256>>>(dp, n, 1.5f);
    scaleSoA<<<n / 256, 256>>>(dx, n, 1.5f);
    cudaMemcpy(hp, dp, n * sizeof(P), cudaMemcpyDeviceToHost);
    cudaMemcpy(hx, dx, n * sizeof(float), cudaMemcpyDeviceToHost);
    printf("aos %.1f %.1f soa %.1f %.1f\n", hp[3].x, hp[n - 1].x, hx[3], hx[n - 1]);
    free(hp); free(hx);
    return 0;
}
