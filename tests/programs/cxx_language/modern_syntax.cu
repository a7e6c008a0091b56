// auto, decltype, constexpr, nullptr, the named casts, range-based for over arrays,
// __attribute__((...)), inline specifiers, extern "C" and static_assert.
#include <cstdio>

constexpr int kSize = 4;
static_assert(kSize == 4, "kSize must be 4");
static_assert(sizeof(long) == 8);

extern "C" int c_linkage(int x);
extern "C" {
    int c_block(int x) { return x * 3; }
}
extern "C" int c_linkage(int x) { return x + 1; }

__attribute__((always_inline)) inline int add_one(int x) { return x + 1; }
static __inline__ int sub_one(int x) __attribute__((unused));
static __inline__ int sub_one(int x) { return x - 1; }
int aligned_value __attribute__((aligned(16))) = 12;
[[nodiscard]] int answer() noexcept { return 42; }

__forceinline__ __device__ float square(float v) { return v * v; }
__noinline__ __device__ float cube(float v) { return v * v * v; }

__global__ void kernel(float *out) {
    float local[kSize] = {1.0f, 2.0f, 3.0f, 4.0f};
    float sum = 0.0f;
    for (const auto &v : local) sum += square(v);
    for (auto &v : local) v = cube(v);
    auto i = threadIdx.x;
    out[i] = sum + local[i];
}

int main() {
    auto n = 3;
    auto f = 2.5f;
    const auto &ref = n;
    decltype(f) g = f * 2;
    int values[kSize] = {1, 2, 3, 4};
    auto *p = &values[1];
    printf("auto %d %.2f %d %.2f %d\n", n, f, ref, g, *p);
    int total = 0;
    for (int v : values) total += v;
    for (auto &v : values) v *= 10;
    printf("range %d %d %d\n", total, values[0], values[3]);
    double d = 3.75;
    int truncated = static_cast<int>(d);
    unsigned char byte = static_cast<unsigned char>(300);
    float one = 1.0f;
    unsigned int bits = *reinterpret_cast<unsigned int *>(&one);
    const int fixed = 7;
    int *unfixed = const_cast<int *>(&fixed);
    printf("casts %d %d %08x %d\n", truncated, byte, bits, *unfixed);
    int *none = nullptr;
    printf("nullptr %d %d\n", none == nullptr, none == 0);
    printf("calls %d %d %d %d %d %d\n", add_one(1), sub_one(1), c_block(2), c_linkage(2), answer(), aligned_value);
    float *dout;
    cudaMalloc(&dout, kSize * sizeof(float));
    kernel<<<1, kSize>>>(dout);
    float h[kSize];
    cudaMemcpy(h, dout, sizeof(h), cudaMemcpyDeviceToHost);
    for (auto v : h) printf("%.0f ", v);
    printf("\n");
    cudaFree(dout);
    return 0;
}
