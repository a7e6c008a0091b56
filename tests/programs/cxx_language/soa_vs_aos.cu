// Array of structures against structure of arrays, the memory-layout lesson of CUDA
// courses: the same update (position += velocity * dt, dt = 0.5) on a
// std::vector<Particle> copied whole to the device and on three separate device
// arrays.  Inputs are small integers and halves, so every result is exact: particle i
// starts at (i, 2i, -i) with velocity (2, 4, 6) and ends at (i+1, 2i+2, 3-i), worked
// out by hand.  The two layouts must agree.
#include <iomanip>
#include <iostream>
#include <vector>

struct Particle {
    float x, y, z;
    float vx, vy, vz;
};

struct ParticlesSoA {
    float *x, *y, *z;
    float *vx, *vy, *vz;
};

__global__ void stepAoS(Particle *p, int n, float dt)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    p[i].x += p[i].vx * dt;
    p[i].y += p[i].vy * dt;
    p[i].z += p[i].vz * dt;
}

__global__ void stepSoA(ParticlesSoA p, int n, float dt)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    p.x[i] += p.vx[i] * dt;
    p.y[i] += p.vy[i] * dt;
    p.z[i] += p.vz[i] * dt;
}

int main()
{
    const int n = 5;
    std::vector<Particle> aos(n);
    for (int i = 0; i < n; ++i) aos[i] = {float(i), 2.0f * i, -float(i), 2.0f, 4.0f, 6.0f};

    Particle *dAoS;
    cudaMalloc(&dAoS, n * sizeof(Particle));
    cudaMemcpy(dAoS, aos.data(), n * sizeof(Particle), cudaMemcpyHostToDevice);
    stepAoS<<<1, 32>>>(dAoS, n, 0.5f);

    std::vector<float> comp[6];
    for (int c = 0; c < 6; ++c) comp[c].resize(n);
    for (int i = 0; i < n; ++i) {
        comp[0][i] = aos[i].x; comp[1][i] = aos[i].y; comp[2][i] = aos[i].z;
        comp[3][i] = aos[i].vx; comp[4][i] = aos[i].vy; comp[5][i] = aos[i].vz;
    }
    float *arrays[6];
    for (int c = 0; c < 6; ++c) {
        cudaMalloc(&arrays[c], n * sizeof(float));
        cudaMemcpy(arrays[c], comp[c].data(), n * sizeof(float), cudaMemcpyHostToDevice);
    }
    ParticlesSoA soa{arrays[0], arrays[1], arrays[2], arrays[3], arrays[4], arrays[5]};
    stepSoA<<<1, 32>>>(soa, n, 0.5f);

    cudaMemcpy(aos.data(), dAoS, n * sizeof(Particle), cudaMemcpyDeviceToHost);
    for (int c = 0; c < 3; ++c) cudaMemcpy(comp[c].data(), arrays[c], n * sizeof(float), cudaMemcpyDeviceToHost);

    std::cout << "sizeof(Particle) = " << sizeof(Particle) << std::endl;
    std::cout << std::fixed << std::setprecision(1);
    int mismatches = 0;
    for (int i = 0; i < n; ++i) {
        std::cout << "p" << i << " (" << std::setw(4) << aos[i].x << "," << std::setw(4) << aos[i].y << ","
                  << std::setw(5) << aos[i].z << ")" << std::endl;
        if (aos[i].x != comp[0][i] || aos[i].y != comp[1][i] || aos[i].z != comp[2][i]) ++mismatches;
    }
    std::cout << "layouts agree: " << (mismatches == 0 ? "yes" : "no") << std::endl;
    cudaFree(dAoS);
    for (int c = 0; c < 6; ++c) cudaFree(arrays[c]);
    return 0;
}
