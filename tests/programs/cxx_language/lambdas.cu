// Lambdas as CUDA programs use them: host lambdas stored in auto, captures by value and
// by reference, passed to function templates; a lambda defined and called inside a kernel.
#include <cstdio>

template <typename F>
void apply(int *a, int n, F f)
{
    for (int i = 0; i < n; i++) a[i] = f(a[i]);
}

template <typename F>
int reduce(const int *a, int n, int init, F op)
{
    int acc = init;
    for (int i = 0; i < n; i++) acc = op(acc, a[i]);
    return acc;
}

struct Point {
    int x, y;
};

// Each thread squares its value with a local lambda and adds a captured offset:
// out[i] = i * i + 3, so out[0..4] = 3 4 7 12 19 and the sum over 0..63 is
// 63 * 64 * 127 / 6 + 64 * 3 = 85344 + 192 = 85536.
__global__ void squarePlus(int *out, int offset)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    auto sq = [](int v) { return v * v; };
    auto shift = [offset](int v) { return v + offset; };
    out[i] = shift(sq(i));
}

int main()
{
    auto twice = [](int x) { return x * 2; };
    printf("twice(21) = %d\n", twice(21));

    int a[6] = {1, 2, 3, 4, 5, 6};
    int bias = 10;
    apply(a, 6, [bias](int v) { return v + bias; });
    printf("after +bias: %d %d %d\n", a[0], a[3], a[5]);

    int sum = 0;
    auto add = [&sum](int v) { sum += v; };
    for (int i = 0; i < 6; i++) add(a[i]);
    printf("sum by reference: %d\n", sum);

    int count = 0;
    int limit = 13;
    auto countAbove = [&, limit](int v) {
        if (v > limit) count++;
    };
    for (int i = 0; i < 6; i++) countAbove(a[i]);
    printf("above %d: %d\n", limit, count);

    int product = reduce(a, 3, 1, [](int x, int y) { return x * y; });
    int maxv = reduce(a, 6, 0, [=](int x, int y) -> int { return x > y ? x : y; });
    printf("product %d, max %d\n", product, maxv);

    int counter = 100;
    auto next = [counter]() mutable { return ++counter; };
    int first = next();
    int second = next();
    printf("mutable copy: %d %d, original %d\n", first, second, counter);

    Point p = {3, 4};
    auto norm1 = [p]() { return (p.x < 0 ? -p.x : p.x) + (p.y < 0 ? -p.y : p.y); };
    p.x = 100;
    printf("captured point: %d (p.x now %d)\n", norm1(), p.x);

    double scale = 0.5;
    auto half = [&](int v) { return v * scale; };
    scale = 0.25;
    printf("half-ish: %.2f\n", half(10));

    auto compose = [twice](int v) {
        auto inc = [](int w) { return w + 1; };
        return twice(inc(v));
    };
    printf("compose(4) = %d\n", compose(4));

    int *d_out;
    cudaMalloc(&d_out, 64 * sizeof(int));
    squarePlus<<<2, 32>>>(d_out, 3);
    int h[64];
    cudaMemcpy(h, d_out, sizeof(h), cudaMemcpyDeviceToHost);
    cudaFree(d_out);
    int total = reduce(h, 64, 0, [](int x, int y) { return x + y; });
    printf("kernel: %d %d %d %d %d, total %d\n", h[0], h[1], h[2], h[3], h[4], total);
    return 0;
}
