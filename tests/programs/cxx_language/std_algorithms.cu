// The C++ standard library's namespace std as CUDA programs' host code uses it: <cmath>'s
// overloads (std::sqrt of a float is a float), std::abs of each type, <algorithm>'s sort
// (with and without a functor), <numeric>, <utility>'s swap and the C library through std.
// nvcc builds it with --expt-relaxed-constexpr (a kernel calls std's constexpr functions);
// the expected output is an H100's (tests/data/groundtruth/cxx/language.sh).
// The kernel: out[i] = std::min(std::max(in[i], -2.0f), 2.0f) * std::abs(in[i]) + std::sqrt(4.0f)
// for in = {-3, -1.5, 0.5, 4}: min(max(-3,-2),2) * 3 + 2 = -4, -1.5 * 1.5 + 2 = -0.25,
// 0.5 * 0.5 + 2 = 2.25, 2 * 4 + 2 = 10.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <numeric>
#include <utility>

struct ByLastDigit {
    bool operator()(int a, int b) const { return a % 10 < b % 10; }
};

__global__ void clampScale(const float *in, float *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = std::min(std::max(in[i], -2.0f), 2.0f) * std::abs(in[i]) + std::sqrt(4.0f);
}

int main()
{
    const int n = 4;
    float h[n] = {-3.0f, -1.5f, 0.5f, 4.0f}, out[n];
    float *d_in, *d_out;
    cudaMalloc(&d_in, sizeof(h));
    cudaMalloc(&d_out, sizeof(out));
    cudaMemcpy(d_in, h, sizeof(h), cudaMemcpyHostToDevice);
    clampScale<<<1, n>>>(d_in, d_out, n);
    cudaMemcpy(out, d_out, sizeof(out), cudaMemcpyDeviceToHost);
    std::printf("kernel: %g %g %g %g\n", out[0], out[1], out[2], out[3]);
    std::swap(d_in, d_out);
    cudaFree(d_in);
    cudaFree(d_out);

    std::printf("sizeof std::sqrt(float) %d, std::sqrt(double) %d, std::abs(-2.5f) %g, std::abs(-7) %d\n",
                (int)sizeof(std::sqrt(2.0f)), (int)sizeof(std::sqrt(2.0)), std::abs(-2.5f), std::abs(-7));
    std::printf("std::pow(2.0f, 10.0f) %g, std::fabs(-0.25) %g, std::sqrt(2) %.6f, std::abs(-5000000000l) %ld\n",
                std::pow(2.0f, 10.0f), std::fabs(-0.25), std::sqrt(2), std::abs(-5000000000l));

    int v[10] = {42, 17, 93, 8, 56, 71, 20, 64, 35, 9};
    std::sort(v, v + 10);
    std::printf("sorted:");
    for (int x : v) std::printf(" %d", x);
    std::sort(v, v + 10, ByLastDigit());
    std::printf("\nby last digit:");
    for (int x : v) std::printf(" %d", x % 10);
    std::reverse(v, v + 10);
    const int *lo = std::min_element(v, v + 10), *hi = std::max_element(v, v + 10);
    std::printf("\nmin %d at %d, max %d at %d\n", *lo, (int)(lo - v), *hi, (int)(hi - v));

    double series[6];
    std::iota(series, series + 6, 0.5);
    std::printf("iota sum %.1f, int sum %d\n", std::accumulate(series, series + 6, 0.0), std::accumulate(v, v + 10, 0));
    std::uint32_t words[4];
    std::fill(words, words + 4, 7u);
    std::fill_n(words, 2, 1u);
    std::uint32_t copied[4];
    std::copy(words, words + 4, copied);
    std::printf("words %u %u %u %u, std::min %d std::max %.1f\n", copied[0], copied[1], copied[2], copied[3],
                std::min(3, -1), std::max(1.5, 2.5));

    char text[16];
    std::strcpy(text, "namespace");
    std::size_t len = std::strlen(text);
    std::printf("%s has %d letters\n", text, (int)len);
    using namespace std;
    printf("using namespace std: %g\n", sqrt(16.0f));
    return 0;
}
