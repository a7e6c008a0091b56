// Array-of-structs against struct-of-arrays, as optimisation lectures compare them: one
// templated kernel over a layout policy (each layout a struct with __device__ accessors),
// a layout chosen by a template argument, and static constexpr members naming each layout.
// Kernel output worked out by hand: for particle i (0..9) with x = i, y = 2i, vx = 1,
// vy = -1, step moves x += vx * 2 and y += vy * 2, so sum x = 45 + 20 = 65 and
// sum y = 90 - 20 = 70 for both layouts.
#include <cstdio>

struct Particle {
    float x, y, vx, vy;
};

struct AoS {
    static constexpr const char *name = "AoS";
    Particle *p;
    __device__ float &x(int i) { return p[i].x; }
    __device__ float &y(int i) { return p[i].y; }
    __device__ float vx(int i) const { return p[i].vx; }
    __device__ float vy(int i) const { return p[i].vy; }
};

struct SoA {
    static constexpr const char *name = "SoA";
    float *xs, *ys, *vxs, *vys;
    __device__ float &x(int i) { return xs[i]; }
    __device__ float &y(int i) { return ys[i]; }
    __device__ float vx(int i) const { return vxs[i]; }
    __device__ float vy(int i) const { return vys[i]; }
};

template <typename Layout>
__global__ void step(Layout layout, int n, float dt) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        layout.x(i) += layout.vx(i) * dt;
        layout.y(i) += layout.vy(i) * dt;
    }
}

template <typename Layout>
void report(float sx, float sy) {
    printf("%s: sum x %.1f, sum y %.1f\n", Layout::name, sx, sy);
}

int main() {
    const int n = 10;
    const float dt = 2.0f;
    Particle host[n];
    for (int i = 0; i < n; ++i) host[i] = {float(i), float(2 * i), 1.0f, -1.0f};

    AoS aos;
    cudaMalloc(&aos.p, n * sizeof(Particle));
    cudaMemcpy(aos.p, host, sizeof host, cudaMemcpyHostToDevice);
    step<<<(n + 3) / 4, 4>>>(aos, n, dt);
    Particle back[n];
    cudaMemcpy(back, aos.p, sizeof back, cudaMemcpyDeviceToHost);
    float sx = 0, sy = 0;
    for (const Particle &q : back) {
        sx += q.x;
        sy += q.y;
    }
    report<AoS>(sx, sy);
    cudaFree(aos.p);

    float fields[4][n];
    for (int i = 0; i < n; ++i) {
        fields[0][i] = host[i].x;
        fields[1][i] = host[i].y;
        fields[2][i] = host[i].vx;
        fields[3][i] = host[i].vy;
    }
    SoA soa;
    float **slots[4] = {&soa.xs, &soa.ys, &soa.vxs, &soa.vys};
    for (int f = 0; f < 4; ++f) {
        cudaMalloc(slots[f], n * sizeof(float));
        cudaMemcpy(*slots[f], fields[f], n * sizeof(float), cudaMemcpyHostToDevice);
    }
    step<SoA><<<(n + 3) / 4, 4>>>(soa, n, dt);
    cudaMemcpy(fields[0], soa.xs, n * sizeof(float), cudaMemcpyDeviceToHost);
    cudaMemcpy(fields[1], soa.ys, n * sizeof(float), cudaMemcpyDeviceToHost);
    sx = sy = 0;
    for (int i = 0; i < n; ++i) {
        sx += fields[0][i];
        sy += fields[1][i];
    }
    report<SoA>(sx, sy);
    for (int f = 0; f < 4; ++f) cudaFree(*slots[f]);
    printf("bytes per particle: AoS %d, SoA %d\n", (int)sizeof(Particle), (int)(4 * sizeof(float)));
    return 0;
}
