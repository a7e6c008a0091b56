// A struct in a namespace whose __host__ __device__ member function reads its namespace's scoped
// enum (Kind::Heavy), a reference parameter, new[]/delete[], a static local. Expected: the
// light particle falls x = -0.098 * 0.01 * (1 + ... + 100) = -4.9490 with v = -9.8; the heavy
// one matches the host run of the same step (g++ prints x=0.5051); counter() is called 3 times.
#include <cstdio>
#include <cmath>
namespace physics {
enum class Kind { Light, Heavy };
struct Particle {
    float x, v;
    Kind kind;
    __host__ __device__ float mass() const { return kind == Kind::Heavy ? 10.0f : 1.0f; }
};
__host__ __device__ inline void step(Particle &p, float dt) {
    p.v -= 9.8f * dt / p.mass();
    p.x += p.v * dt;
}
}
using physics::Particle;
__global__ void simulate(Particle *ps, int n, int steps) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    Particle p = ps[i];
    for (int s = 0; s < steps; s++) physics::step(p, 0.01f);
    ps[i] = p;
}
int counter() { static int calls = 0; return ++calls; }
int main() {
    const int n = 64;
    Particle *h = new Particle[n];
    for (int i = 0; i < n; i++) h[i] = Particle{float(i), 0.0f, i % 2 ? physics::Kind::Heavy : physics::Kind::Light};
    Particle *d;
    cudaMalloc(&d, n * sizeof(Particle));
    cudaMemcpy(d, h, n * sizeof(Particle), cudaMemcpyHostToDevice);
    simulate<<<2, 32>>>(d, n, 100);
    cudaMemcpy(h, d, n * sizeof(Particle), cudaMemcpyDeviceToHost);
    Particle ref{1.0f, 0.0f, physics::Kind::Heavy};
    for (int s = 0; s < 100; s++) physics::step(ref, 0.01f);
    printf("p0 x=%.4f v=%.4f\n", h[0].x, h[0].v);
    printf("p1 x=%.4f host=%.4f %s\n", h[1].x, ref.x, fabsf(h[1].x - ref.x) < 1e-5f ? "match" : "MISMATCH");
    counter(); counter();
    printf("calls %d\n", counter());
    delete[] h;
    cudaFree(d);
    return 0;
}
