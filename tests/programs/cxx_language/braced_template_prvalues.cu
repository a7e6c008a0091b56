// Braced prvalues of class template specialisations, as small math types are built
// in CUDA teaching code: an aggregate `Range<int>{lo, hi}` passed to a kernel, a
// `Scale<float>{2.5f}` of a class with a constructor, and `std::vector<int>{...}`.
// The kernel writes lo + i * step for i < n with Range<int>{10, 3}: 10 13 16 19 22,
// worked out by hand (host output recorded from g++).
#include <iostream>
#include <vector>

template <typename T>
struct Range {
    T lo, step;
};

template <typename T>
struct Scale {
    T k;
    Scale(T v) : k(v) {}
    T operator()(T x) const { return k * x; }
};

__global__ void fillRange(int *out, int n, Range<int> r)
{
    int i = threadIdx.x;
    if (i < n) out[i] = r.lo + i * r.step;
}

int main()
{
    const int n = 5;
    int *d;
    cudaMalloc(&d, n * sizeof(int));
    fillRange<<<1, n>>>(d, n, Range<int>{10, 3});
    std::vector<int> h = std::vector<int>{0, 0, 0, 0, 0};
    cudaMemcpy(h.data(), d, n * sizeof(int), cudaMemcpyDeviceToHost);
    cudaFree(d);
    for (int v : h) std::cout << v << ' ';
    std::cout << std::endl;
    std::cout << Scale<float>{2.5f}(4.0f) << ' ' << Range<double>{0.5, 0.25}.step << std::endl;
    return 0;
}
