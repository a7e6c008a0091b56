// Operator overloading: members and non-members, compound assignment, comparison, [], (), unary minus.
#include <stdio.h>
struct V {
    float x, y;
    __host__ __device__ V(float a, float b) : x(a), y(b) {}
    __host__ __device__ V() : x(0), y(0) {}
    __host__ __device__ V operator+(V o) const { return V(x + o.x, y + o.y); }
    __host__ __device__ V operator*(float s) const { return V(x * s, y * s); }
    __host__ __device__ V operator-() const { return V(-x, -y); }
    __host__ __device__ void operator+=(V o) { x += o.x; y += o.y; }
    __host__ __device__ bool operator==(V o) const { return x == o.x && y == o.y; }
    __host__ __device__ float operator[](int i) const { return i == 0 ? x : y; }
};
__host__ __device__ V operator-(V a, V b) { return V(a.x - b.x, a.y - b.y); }
struct Adder { int k; int operator()(int v) const { return v + k; } };
int main() {
    V a(1, 2), b(3, 4);
    V c = a + b * 2.0f;
    c += a;
    V d = c - a;
    Adder add{5};
    V n = -a;
    printf("%g %g %g %g %d %d %g %d %g\n", c.x, c.y, d.x, d[1], a == b, a == V(1, 2), (a + b)[0], add(3), n.y);
    return 0;
}
