// A user-style program checked on an H100 when first written (tests/data/groundtruth/cuda).
#include <iostream>
#include <iomanip>
#include <vector>
#include <string>
#include <cuda_runtime.h>

struct Vec2 { float x, y; };

class Particle {
public:
    Particle(int id, Vec2 p, Vec2 v) : id_(id), pos_(p), vel_(v) {}
    int id() const { return id_; }
    Vec2 pos() const { return pos_; }
    Vec2 vel() const { return vel_; }
private:
    int id_;
    Vec2 pos_, vel_;
};

struct StepParams { float dt; float drag; int n; };

__global__ void step(Vec2 *pos, Vec2 *vel, StepParams p) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= p.n) return;
    vel[i].x *= p.drag; vel[i].y *= p.drag;
    pos[i].x += vel[i].x * p.dt;
    pos[i].y += vel[i].y * p.dt;
}

int main() {
    std::vector<Particle> ps;
    ps.reserve(2);
    for (int i = 0; i < 6; ++i) {
        if (i % 2 == 0)
            ps.emplace_back(i, Vec2{float(i), 0.0f}, Vec2{1.0f, 0.5f * i});
        else
            ps.push_back({i, {0.0f, float(i)}, {-1.0f, 2.0f}});
    }
    int n = static_cast<int>(ps.size());
    Vec2 *pos, *vel;
    cudaMallocManaged(&pos, n * sizeof(Vec2));
    cudaMallocManaged(&vel, n * sizeof(Vec2));
    for (int i = 0; i < n; ++i) { pos[i] = ps[i].pos(); vel[i] = ps[i].vel(); }
    StepParams prm{0.5f, 0.5f, n};
    for (int s = 0; s < 3; ++s) {
        step<<<1, 32>>>(pos, vel, prm);
        cudaDeviceSynchronize();
    }
    std::cout << std::fixed << std::setprecision(3);
    for (int i = 0; i < n; ++i)
        std::cout << "particle " << std::setw(2) << ps[i].id() << ": (" << pos[i].x << ", " << pos[i].y << ")\n";
    std::cout << "capacity " << ps.capacity() << std::endl;
    cudaFree(pos); cudaFree(vel);
    return 0;
}
