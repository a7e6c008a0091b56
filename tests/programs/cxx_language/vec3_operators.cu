// A vec3 type with operators usable on host and device (__host__ __device__ members
// and free operators), as ray-tracing and n-body tutorials write it, plus an
// operator<< for printing.  Each thread i computes cross(a_i, b) + 2 * a_i with
// a_i = (i, i+1, i+2) and b = (1, 0, -1), and dot(a_i, a_i); all small integers in
// float, so exact: cross(a_i, b) = (-(i+1), 2i+2, -(i+1)), plus 2a_i gives (i-1, 4i+4, i+3),
// and dot(a_i, a_i) = 3i^2 + 6i + 5, worked out by hand; the
// host repeats the computation with the same operators and compares.
#include <iostream>
#include <vector>

struct Vec3 {
    float x, y, z;
    __host__ __device__ Vec3() : x(0), y(0), z(0) {}
    __host__ __device__ Vec3(float a, float b, float c) : x(a), y(b), z(c) {}
    __host__ __device__ Vec3 operator+(const Vec3 &o) const { return Vec3(x + o.x, y + o.y, z + o.z); }
    __host__ __device__ Vec3 operator-() const { return Vec3(-x, -y, -z); }
    __host__ __device__ Vec3 &operator+=(const Vec3 &o)
    {
        x += o.x;
        y += o.y;
        z += o.z;
        return *this;
    }
    __host__ __device__ bool operator==(const Vec3 &o) const { return x == o.x && y == o.y && z == o.z; }
};

__host__ __device__ inline Vec3 operator*(float s, const Vec3 &v) { return Vec3(s * v.x, s * v.y, s * v.z); }
__host__ __device__ inline float dot(const Vec3 &a, const Vec3 &b) { return a.x * b.x + a.y * b.y + a.z * b.z; }
__host__ __device__ inline Vec3 cross(const Vec3 &a, const Vec3 &b)
{
    return Vec3(a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x);
}

std::ostream &operator<<(std::ostream &os, const Vec3 &v) { return os << '(' << v.x << ", " << v.y << ", " << v.z << ')'; }

__host__ __device__ Vec3 combine(int i, Vec3 b)
{
    Vec3 a(i, i + 1, i + 2);
    Vec3 r = cross(a, b);
    r += 2.0f * a;
    return r;
}

__global__ void kernel(Vec3 *out, float *dots, int n, Vec3 b)
{
    int i = threadIdx.x;
    if (i < n) {
        out[i] = combine(i, b);
        Vec3 a(i, i + 1, i + 2);
        dots[i] = dot(a, -(-a));
    }
}

int main()
{
    const int n = 4;
    const Vec3 b(1, 0, -1);
    Vec3 *dOut;
    float *dDots;
    cudaMalloc(&dOut, n * sizeof(Vec3));
    cudaMalloc(&dDots, n * sizeof(float));
    kernel<<<1, n>>>(dOut, dDots, n, b);
    std::vector<Vec3> out(n);
    std::vector<float> dots(n);
    cudaMemcpy(out.data(), dOut, n * sizeof(Vec3), cudaMemcpyDeviceToHost);
    cudaMemcpy(dots.data(), dDots, n * sizeof(float), cudaMemcpyDeviceToHost);
    cudaFree(dOut);
    cudaFree(dDots);
    for (int i = 0; i < n; ++i)
        std::cout << i << ": " << out[i] << " dot " << dots[i] << (out[i] == combine(i, b) ? " (host agrees)" : " (MISMATCH)")
                  << std::endl;
    return 0;
}
