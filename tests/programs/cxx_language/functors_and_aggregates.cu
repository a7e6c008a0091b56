// Functors called through operator() on any class-typed callee (a temporary, a by-value
// parameter, a template parameter), T{...} of an aggregate, a conditional of class type,
// new/delete with constructors, and a pointer's member functions.
#include <cstdio>

struct Scale {
    float k;
    __host__ __device__ Scale(float k_) : k(k_) {}
    __host__ __device__ float operator()(float x) const { return k * x; }
};

struct Stats {
    int count, sum;
};

struct Vec2 {
    float x, y;
    __host__ __device__ Vec2() : x(0), y(0) {}
    __host__ __device__ Vec2(float a, float b) : x(a), y(b) {}
};

struct Counter {
    int n;
    Counter(int start) : n(start) {}
    void bump() { n++; }
    int get() const { return n; }
};

template <typename F>
__global__ void applyAll(F f, float *data, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) data[i] = f(data[i]);
}

float applyTwice(Scale s, float x) { return s(s(x)); }

__host__ __device__ Stats one(int v) { return Stats{1, v}; }

int main()
{
    printf("Scale(3)(2) = %.1f, twice = %.1f\n", Scale(3.0f)(2.0f), applyTwice(Scale(2.0f), 1.5f));
    Stats s = one(7);
    Stats t = Stats{2, 9};
    printf("stats %d %d, %d %d\n", s.count, s.sum, t.count, t.sum);

    // Each of the 8 threads multiplies its element (i + 1) by 0.5: 0.5 1.0 ... 4.0.
    float h[8];
    for (int i = 0; i < 8; i++) h[i] = i + 1.0f;
    float *d;
    cudaMalloc(&d, sizeof(h));
    cudaMemcpy(d, h, sizeof(h), cudaMemcpyHostToDevice);
    applyAll<<<1, 8>>>(Scale(0.5f), d, 8);
    cudaMemcpy(h, d, sizeof(h), cudaMemcpyDeviceToHost);
    cudaFree(d);
    printf("kernel: %.1f %.1f %.1f\n", h[0], h[3], h[7]);

    Vec2 pts[2] = {Vec2(1, 2), Vec2(3, 4)};
    for (int i = 0; i < 3; i++) {
        Vec2 p = i < 2 ? pts[i] : Vec2();
        printf("p%d = (%.0f, %.0f)\n", i, p.x, p.y);
    }

    Counter *c = new Counter(41);
    c->bump();
    printf("counter %d\n", c->get());
    delete c;
    int n = 4;
    int *zeros = new int[n]();
    printf("zeros %d %d\n", zeros[0], zeros[n - 1]);
    delete[] zeros;
    return 0;
}
