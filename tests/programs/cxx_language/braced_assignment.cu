// A braced list on the right of an assignment (C++11): `x = {a, b}` assigns a struct its
// aggregate initialisation, a class `T{a, b}` (its constructor, then its operator= when it has
// one), a std::vector its initializer-list constructor's value, and a scalar its one element
// (`{}`: zero); through an index, a pointer's member and inside a kernel.
// Kernel output worked out by hand: init_points<<<1, 4>>> sets pos[i] = {i, 2i} and
// vel[i] = {0.5, -i}; step<<<1, 4>>> adds vel to pos: pos = (0.5,0) (1.5,1) (2.5,2) (3.5,3).
#include <cstdio>
#include <utility>
#include <vector>

struct Vec2 {
    float x, y;
};

struct Particle {
    Vec2 pos;
    Vec2 vel;
    int id;
};

struct Complex {
    double re, im;
    Complex() : re(0), im(0) {}
    Complex(double r, double i) : re(r), im(i) {}
};

struct Logged {
    int value;
    Logged(int v = -1) : value(v) {}
    Logged &operator=(const Logged &o)
    {
        printf("assign %d over %d\n", o.value, value);
        value = o.value;
        return *this;
    }
};

__global__ void init_points(float2 *pos, Vec2 *vel, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        pos[i] = {1.0f * i, 2.0f * i};
        vel[i] = {0.5f, -1.0f * i};
    }
}

__global__ void step(float2 *pos, const Vec2 *vel, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) pos[i] = {pos[i].x + vel[i].x, pos[i].y + vel[i].y};
}

int main()
{
    Vec2 v;
    v = {3.0f, 4.0f};
    printf("v %.1f %.1f\n", v.x, v.y);
    v = {};
    printf("cleared %.1f %.1f\n", v.x, v.y);

    Particle ps[3];
    for (int i = 0; i < 3; i++) ps[i] = {{1.0f * i, 0.0f}, {0.0f, 1.0f}, i};
    Particle *p = &ps[2];
    p->vel = {9.0f, 8.0f};
    p->pos = {p->pos.x + 1, -1};
    printf("particles %.1f %.1f %d | %.1f %.1f %.1f %.1f %d\n", ps[1].pos.x, ps[1].vel.y, ps[1].id, p->pos.x,
           p->pos.y, p->vel.x, p->vel.y, p->id);

    Complex z;
    z = {1.5, -2.0};
    printf("complex %.1f %.1f\n", z.re, z.im);
    z = {};
    printf("complex %.1f %.1f\n", z.re, z.im);

    Logged a(1);
    a = {7};
    a = {};

    std::vector<int> xs;
    xs = {5, 6, 7, 8};
    printf("xs %zu %d\n", xs.size(), xs[3]);
    std::vector<std::pair<int, float>> table(2);
    table[1] = {3, 0.25f};
    printf("table %d %.2f %d %.2f\n", table[0].first, table[0].second, table[1].first, table[1].second);

    int count;
    count = {42};
    float scale = 2.5f;
    scale = {};
    printf("scalars %d %.1f\n", count, scale);
    Vec2 w;
    float wy = (w = {1.0f, 6.0f}).y;
    printf("assignment's value %.1f\n", wy);

    int n = 4;
    float2 *d_pos;
    Vec2 *d_vel;
    cudaMalloc(&d_pos, n * sizeof(float2));
    cudaMalloc(&d_vel, n * sizeof(Vec2));
    init_points<<<1, 4>>>(d_pos, d_vel, n);
    step<<<1, 4>>>(d_pos, d_vel, n);
    float2 h_pos[4];
    cudaMemcpy(h_pos, d_pos, sizeof(h_pos), cudaMemcpyDeviceToHost);
    for (int i = 0; i < n; i++) printf("(%.1f,%.1f) ", h_pos[i].x, h_pos[i].y);
    printf("\n");
    cudaFree(d_pos);
    cudaFree(d_vel);
    return 0;
}
