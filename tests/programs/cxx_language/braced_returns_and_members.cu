// C++11 brace forms a course's vector type uses: `return {x, y};` from host and device
// functions, members list-initialised in a constructor's initialiser list (first or
// later: `Particle() : pos{0, 0}, vel{}`), and `return {};` for a scalar.
// The kernel moves p = (1, 2) by v = (0.5, -1) four times: (3, -2).
#include <cstdio>

struct Vec2 {
    float x, y;
    __host__ __device__ Vec2 operator+(const Vec2 &o) const { return {x + o.x, y + o.y}; }
    __host__ __device__ Vec2 scaled(float s) const { return {x * s, y * s}; }
};

struct Particle {
    Vec2 pos;
    Vec2 vel;
    int id;
    Particle() : pos{0, 0}, vel{}, id(-1) {}
    Particle(int i, float px, float py) : pos{px, py}, vel{1, 1}, id(i) {}
};

struct Counter {
    Vec2 origin;
    int hits;
    Counter() : origin{3, 4}, hits{} {}
};

int none() { return {}; }

__global__ void move(Vec2 *p, Vec2 v, int steps)
{
    for (int s = 0; s < steps; ++s) *p = *p + v;
}

int main()
{
    Particle a, b(7, 1.5f, -2.5f);
    printf("a: id %d pos (%g, %g) vel (%g, %g)\n", a.id, a.pos.x, a.pos.y, a.vel.x, a.vel.y);
    printf("b: id %d pos (%g, %g) vel (%g, %g)\n", b.id, b.pos.x, b.pos.y, b.vel.x, b.vel.y);
    Vec2 s = b.pos.scaled(2) + Vec2{1, 1};
    Counter c;
    printf("s (%g, %g) counter (%g, %g) %d none %d\n", s.x, s.y, c.origin.x, c.origin.y, c.hits, none());
    Vec2 p = {1, 2}, *d;
    cudaMalloc(&d, sizeof(Vec2));
    cudaMemcpy(d, &p, sizeof(Vec2), cudaMemcpyHostToDevice);
    move<<<1, 1>>>(d, Vec2{0.5f, -1}, 4);
    cudaMemcpy(&p, d, sizeof(Vec2), cudaMemcpyDeviceToHost);
    cudaFree(d);
    printf("moved (%g, %g)\n", p.x, p.y);
    return 0;
}
