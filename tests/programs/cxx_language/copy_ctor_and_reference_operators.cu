// A user copy constructor taking const T& (called for `Buffer c = b;`, not for temporaries),
// operator[] returning references (const and not), operator+= returning *this, a class
// temporary bound to a const reference, a nested conditional bound to a reference.
// Host output as g++ prints it; the kernel: (1,2,3)+(1,1,1) with z set to 9, times 2 = 4 6 18.
#include <cstdio>
struct Vec3 {
    float x, y, z;
    __host__ __device__ Vec3() : x(0), y(0), z(0) {}
    __host__ __device__ Vec3(float a, float b, float c) : x(a), y(b), z(c) {}
    __host__ __device__ Vec3 &operator+=(const Vec3 &o) { x += o.x; y += o.y; z += o.z; return *this; }
    __host__ __device__ float &operator[](int i) { return i == 0 ? x : (i == 1 ? y : z); }
};
__host__ __device__ Vec3 operator*(const Vec3 &a, float s) { return Vec3(a.x * s, a.y * s, a.z * s); }
class Buffer {
    int n;
    int *p;
public:
    Buffer(int n_) : n(n_) { p = new int[n]; for (int i = 0; i < n; i++) p[i] = i; }
    Buffer(const Buffer &o) : n(o.n) { p = new int[n]; for (int i = 0; i < n; i++) p[i] = o.p[i] * 10; printf("copy\n"); }
    ~Buffer() { delete[] p; printf("free %d\n", n); }
    int &operator[](int i) { return p[i]; }
    const int &operator[](int i) const { return p[i]; }
    int size() const { return n; }
};
int sum(const Buffer &b) { int s = 0; for (int i = 0; i < b.size(); i++) s += b[i]; return s; }
__global__ void k(Vec3 *out) {
    Vec3 v(1, 2, 3);
    v += Vec3(1, 1, 1);
    v[2] = 9;
    out[threadIdx.x] = v * 2.0f;
}
int main() {
    Buffer b(4);
    b[1] = 5;
    printf("sum %d\n", sum(b));
    Buffer c = b;
    printf("c1 %d\n", c[1]);
    Vec3 *d; cudaMalloc(&d, sizeof(Vec3) * 2);
    k<<<1, 2>>>(d);
    Vec3 h[2]; cudaMemcpy(h, d, sizeof(h), cudaMemcpyDeviceToHost);
    printf("%g %g %g\n", h[1].x, h[1].y, h[1].z);
    cudaFree(d);
}
