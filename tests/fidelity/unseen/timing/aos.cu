// Particles moved along x: an array of 32-byte structs (each warp reads and writes one
// float of every struct: 8 sectors a request) against the x coordinates in an array of
// their own (4 sectors a request).
#include <cstdio>
#include <cuda_runtime.h>
#define N 65536

struct Particle { float x, y, z, vx, vy, vz, mass, charge; };

__global__ void moveAoS(Particle *p, float dt)
{
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < N; i += gridDim.x * blockDim.x)
        p[i].x += p[i].vx * dt;
}

__global__ void moveSoA(float *x, const float *vx, float dt)
{
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < N; i += gridDim.x * blockDim.x)
        x[i] += vx[i] * dt;
}

int main(void)
{
    Particle *hp = (Particle *)malloc(N * sizeof(Particle)), *dp;
    float *hx = (float *)malloc(N * sizeof(float)), *hv = (float *)malloc(N * sizeof(float)), *dx, *dv;
    for (int i = 0; i < N; i++) {
        hp[i].x = hx[i] = (i % 100) * 0.5f;
        hp[i].vx = hv[i] = (i % 7) * 0.25f;
        hp[i].y = hp[i].z = hp[i].vy = hp[i].vz = hp[i].mass = hp[i].charge = 1.0f;
    }
    cudaMalloc(&dp, N * sizeof(Particle));
    cudaMalloc(&dx, N * sizeof(float));
    cudaMalloc(&dv, N * sizeof(float));
    cudaMemcpy(dp, hp, N * sizeof(Particle), cudaMemcpyHostToDevice);
    cudaMemcpy(dx, hx, N * sizeof(float), cudaMemcpyHostToDevice);
    cudaMemcpy(dv, hv, N * sizeof(float), cudaMemcpyHostToDevice);
    moveAoS<<<32, 256>>>(dp, 0.1f);
    moveSoA<<<32, 256>>>(dx, dv, 0.1f);
    cudaMemcpy(hp, dp, N * sizeof(Particle), cudaMemcpyDeviceToHost);
    cudaMemcpy(hx, dx, N * sizeof(float), cudaMemcpyDeviceToHost);
    printf("aos: %.3f %.3f\n", hp[1].x, hp[N - 1].x);
    printf("soa: %.3f %.3f\n", hx[1], hx[N - 1]);
    free(hp); free(hx); free(hv);
    return 0;
}
