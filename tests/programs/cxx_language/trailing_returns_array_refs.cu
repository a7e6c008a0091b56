// Trailing return types (`auto f(int x) -> int`, in templates, member functions and
// device code) and reference-to-array parameters (`int (&a)[N]`, with N deduced by a
// template, and sizeof giving the whole array).  The kernel: thread i of 4 writes
// halve(i) + clampTo(i) = 0.5 * i + min(i, 2): 0.0 1.5 3.0 3.5 (worked out by hand).
#include <cstdio>

auto cube(int x) -> int { return x * x * x; }

template <typename T>
auto mean(T a, T b) -> decltype((a + b) / 2) { return (a + b) / 2; }

struct Counter {
    int n;
    auto next() -> int { return ++n; }
    auto doubled() const -> long;
};
auto Counter::doubled() const -> long { return 2L * n; }

__device__ auto halve(float v) -> float { return 0.5f * v; }
__host__ __device__ auto clampTo(int v, int hi) -> int { return v < hi ? v : hi; }

__global__ void combine(float *out)
{
    int i = threadIdx.x;
    out[i] = halve((float)i) + clampTo(i, 2);
}

void fillSquares(int (&a)[6])
{
    for (int i = 0; i < 6; i++) a[i] = i * i;
}

int total(const int (&a)[6])
{
    int s = 0;
    for (int v : a) s += v;
    return s;
}

template <int N>
float average(float (&a)[N])
{
    float s = 0.0f;
    for (float v : a) s += v;
    return s / N;
}

template <typename T, int N>
int count(T (&)[N]) { return N; }

int bytes(double (&a)[3]) { return (int)sizeof(a); }

int main()
{
    printf("cube(3) = %d, mean(3, 8) = %d, mean(3.0, 8.0) = %.2f\n", cube(3), mean(3, 8), mean(3.0, 8.0));
    Counter c = {4};
    c.next();
    int now = c.next();
    printf("counter %d doubled %ld\n", now, c.doubled());

    int squares[6];
    fillSquares(squares);
    printf("squares sum %d, last %d, sizeof %d\n", total(squares), squares[5], (int)sizeof(squares));

    float four[4] = {1.0f, 2.0f, 4.0f, 9.0f};
    float seven[7] = {1, 2, 3, 4, 5, 6, 7};
    printf("average of 4: %.2f, of 7: %.2f\n", average(four), average(seven));
    printf("count %d %d\n", count(four), count(seven));
    double d[3] = {1.0, 2.0, 3.0};
    printf("sizeof a double[3] parameter by reference: %d\n", bytes(d));

    float *dOut;
    cudaMalloc(&dOut, 4 * sizeof(float));
    combine<<<1, 4>>>(dOut);
    float out[4];
    cudaMemcpy(out, dOut, sizeof(out), cudaMemcpyDeviceToHost);
    printf("device: %.1f %.1f %.1f %.1f\n", out[0], out[1], out[2], out[3]);
    cudaFree(dOut);
    return 0;
}
