// <algorithm> and <numeric> with predicates, as host code checks a kernel's results:
// std::for_each with a lambda and with a functor, find/find_if, count/count_if,
// all_of/any_of/none_of, transform (one and two ranges), is_sorted, reverse,
// min_element/max_element, iota and accumulate, over arrays and std::vector iterators.
// The kernel squares in[i] - 4 for in = iota(0..7): out = {16, 9, 4, 1, 0, 1, 4, 9};
// thread 0 counts the zeros of the inputs (one: in[0]) in a loop of its own: std::count is
// a host function to nvcc (not constexpr in C++17), which a kernel may not call.
#include <algorithm>
#include <cstdio>
#include <numeric>
#include <vector>

__global__ void squareShifted(const int *in, int *out, int *zeros, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = (in[i] - 4) * (in[i] - 4);
    if (i == 0) {
        int z = 0;
        for (int k = 0; k < n; ++k) z += in[k] == 0;
        *zeros = z;
    }
}

struct Sum {
    int total = 0;
    void operator()(int v) { total += v; }
};

struct Above {
    int limit;
    explicit Above(int l) : limit(l) {}
    bool operator()(int v) const { return v > limit; }
};

int main()
{
    const int n = 8;
    std::vector<int> in(n);
    std::iota(in.begin(), in.end(), 0);
    int *d_in, *d_out, *d_zeros;
    cudaMalloc(&d_in, n * sizeof(int));
    cudaMalloc(&d_out, n * sizeof(int));
    cudaMalloc(&d_zeros, sizeof(int));
    cudaMemcpy(d_in, in.data(), n * sizeof(int), cudaMemcpyHostToDevice);
    squareShifted<<<1, n>>>(d_in, d_out, d_zeros, n);
    std::vector<int> out(n);
    int zeros = 0;
    cudaMemcpy(out.data(), d_out, n * sizeof(int), cudaMemcpyDeviceToHost);
    cudaMemcpy(&zeros, d_zeros, sizeof(int), cudaMemcpyDeviceToHost);
    printf("zeros in input: %d\n", zeros);

    std::for_each(out.begin(), out.end(), [](int v) { printf("%d ", v); });
    printf("\n");
    int total = 0;
    std::for_each(out.begin(), out.end(), [&total](int v) { total += v; });
    Sum s = std::for_each(out.begin(), out.end(), Sum());
    printf("total %d (lambda) %d (functor) %d (accumulate)\n", total, s.total,
           std::accumulate(out.begin(), out.end(), 0));

    std::vector<int>::iterator it = std::find(out.begin(), out.end(), 4);
    printf("first 4 at %ld\n", (long)(it - out.begin()));
    printf("7 found: %s\n", std::find(out.begin(), out.end(), 7) == out.end() ? "no" : "yes");
    auto big = std::find_if(out.begin(), out.end(), [](int v) { return v < 3; });
    printf("first below 3: out[%ld] = %d\n", (long)(big - out.begin()), *big);
    printf("count of 1: %ld, count above 3: %ld\n", (long)std::count(out.begin(), out.end(), 1),
           (long)std::count_if(out.begin(), out.end(), Above(3)));
    bool allSquares = std::all_of(out.begin(), out.end(), [](int v) {
        for (int r = 0; r * r <= v; r++)
            if (r * r == v) return true;
        return false;
    });
    printf("all squares %d, any above 10 %d, none negative %d\n", allSquares,
           std::any_of(out.begin(), out.end(), Above(10)),
           std::none_of(out.begin(), out.end(), [](int v) { return v < 0; }));

    int doubled[n];
    std::transform(out.begin(), out.end(), doubled, [](int v) { return 2 * v; });
    std::vector<int> sums(n);
    std::transform(in.begin(), in.end(), out.begin(), sums.begin(), [](int a, int b) { return a + b; });
    printf("doubled[1] %d, sums: ", doubled[1]);
    for (int v : sums) printf("%d ", v);
    printf("\n");

    printf("sorted: in %d, out %d\n", std::is_sorted(in.begin(), in.end()), std::is_sorted(out.begin(), out.end()));
    std::reverse(in.begin(), in.end());
    printf("reversed in sorted descending: %d\n",
           std::is_sorted(in.begin(), in.end(), [](int a, int b) { return a > b; }));
    int *lo = std::min_element(doubled, doubled + n);
    int *hi = std::max_element(doubled, doubled + n);
    printf("min %d at %ld, max %d at %ld\n", *lo, (long)(lo - doubled), *hi, (long)(hi - doubled));
    double weights[4];
    std::iota(weights, weights + 4, 0.5);
    printf("weights sum %.2f, product %.4f\n", std::accumulate(weights, weights + 4, 0.0),
           std::accumulate(weights, weights + 4, 1.0, [](double a, double b) { return a * b; }));
    cudaFree(d_in);
    cudaFree(d_out);
    cudaFree(d_zeros);
    return 0;
}
