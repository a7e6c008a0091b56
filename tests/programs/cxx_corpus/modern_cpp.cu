// static_cast, reinterpret_cast, const_cast, auto, nullptr, constexpr, decltype and
// range-based for over arrays, in host and device code.
#include <cstdio>
#include <cstdint>

constexpr int kThreads = 64;
constexpr int square(int x) { return x * x; }

__global__ void scaleBits(const float *in, uint32_t *bits, int *rounded, int n)
{
    auto i = static_cast<int>(blockIdx.x * blockDim.x + threadIdx.x);
    if (i >= n) return;
    auto v = in[i] * 2.0f;
    bits[i] = __float_as_uint(v);
    rounded[i] = static_cast<int>(v + 0.5f);
}

template <typename T>
auto twice(T x) -> decltype(x + x)
{
    return x + x;
}

int main()
{
    constexpr int n = square(16) + 44;
    float in[n];
    int k = 0;
    for (auto &v : in) v = static_cast<float>(k++) * 0.25f;

    float *dIn = nullptr;
    uint32_t *dBits = nullptr;
    int *dRounded = nullptr;
    cudaMalloc(reinterpret_cast<void **>(&dIn), sizeof(in));
    cudaMalloc(reinterpret_cast<void **>(&dBits), n * sizeof(uint32_t));
    cudaMalloc(reinterpret_cast<void **>(&dRounded), n * sizeof(int));
    cudaMemcpy(dIn, in, sizeof(in), cudaMemcpyHostToDevice);
    scaleBits<<<(n + kThreads - 1) / kThreads, kThreads>>>(dIn, dBits, dRounded, n);

    uint32_t bits[n];
    int rounded[n];
    cudaMemcpy(bits, dBits, sizeof(bits), cudaMemcpyDeviceToHost);
    cudaMemcpy(rounded, dRounded, sizeof(rounded), cudaMemcpyDeviceToHost);

    long total = 0;
    for (const auto r : rounded) total += r;
    uint64_t mix = 0;
    for (auto b : bits) mix = mix * 31 + b;
    printf("n=%d total=%ld mix=%llu\n", n, total, static_cast<unsigned long long>(mix));
    printf("bits[3]=0x%08x rounded[3]=%d\n", bits[3], rounded[3]);

    const float pi = 3.0f;
    float *writable = const_cast<float *>(&in[0]);
    *writable = pi;
    const unsigned char *bytes = reinterpret_cast<const unsigned char *>(&in[0]);
    printf("bytes of 3.0f: %02x %02x %02x %02x\n", bytes[0], bytes[1], bytes[2], bytes[3]);

    decltype(total) copy = total;
    auto d = twice(1.5);
    auto i2 = twice(21);
    printf("decltype copy=%ld twice(1.5)=%.1f twice(21)=%d sizeof(d)=%d\n", copy, d, i2, (int)sizeof(d));
    int *none = nullptr;
    printf("nullptr is %s\n", none == nullptr ? "null" : "set");
    cudaFree(dIn);
    cudaFree(dBits);
    cudaFree(dRounded);
    return 0;
}
