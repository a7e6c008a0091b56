// std::numeric_limits as CUDA programs use it: the identity of a min/max reduction in a
// kernel (numeric_limits<float>::max() and lowest()), a function template's sentinel
// (numeric_limits<T>::max() for T = int and double), overflow checks on the host, and the
// limits of each type printed beside <climits>/<cfloat>'s macros.
// nvcc builds it with --expt-relaxed-constexpr (a kernel calls std's constexpr functions);
// the expected output is an H100's (tests/data/groundtruth/cxx/language.sh).
// The kernel: one block of 8 threads reduces in = {3.5, -2, 7.25, 0, -9.5, 4, 1, 6} in
// shared memory to its minimum -9.5 and maximum 7.25; a thread past n (none here with
// n = 8) would contribute the identities.
#include <cfloat>
#include <climits>
#include <cstdio>
#include <limits>

__global__ void minMax(const float *in, int n, float *out)
{
    __shared__ float lo[8], hi[8];
    int t = threadIdx.x;
    lo[t] = t < n ? in[t] : std::numeric_limits<float>::max();
    hi[t] = t < n ? in[t] : std::numeric_limits<float>::lowest();
    __syncthreads();
    for (int s = 4; s > 0; s >>= 1) {
        if (t < s) {
            lo[t] = fminf(lo[t], lo[t + s]);
            hi[t] = fmaxf(hi[t], hi[t + s]);
        }
        __syncthreads();
    }
    if (t == 0) {
        out[0] = lo[0];
        out[1] = hi[0];
    }
}

template <typename T>
T smallest(const T *values, int n)
{
    T best = std::numeric_limits<T>::max();
    for (int i = 0; i < n; i++)
        if (values[i] < best) best = values[i];
    return best;
}

bool addWouldOverflow(int a, int b)
{
    return (b > 0 && a > std::numeric_limits<int>::max() - b) || (b < 0 && a < std::numeric_limits<int>::min() - b);
}

int main()
{
    float h[8] = {3.5f, -2.0f, 7.25f, 0.0f, -9.5f, 4.0f, 1.0f, 6.0f};
    float *d_in, *d_out, out[2];
    cudaMalloc(&d_in, sizeof(h));
    cudaMalloc(&d_out, sizeof(out));
    cudaMemcpy(d_in, h, sizeof(h), cudaMemcpyHostToDevice);
    minMax<<<1, 8>>>(d_in, 8, d_out);
    cudaMemcpy(out, d_out, sizeof(out), cudaMemcpyDeviceToHost);
    printf("min %.2f max %.2f\n", out[0], out[1]);

    int ints[4] = {12, -7, 30, 5};
    double doubles[3] = {2.5, 1e-3, 8.0};
    printf("smallest int %d, double %g, of none %d\n", smallest(ints, 4), smallest(doubles, 3), smallest(ints, 0));
    printf("overflow: %d %d %d\n", addWouldOverflow(2000000000, 2000000000), addWouldOverflow(-5, 7),
           addWouldOverflow(INT_MIN, -1));

    printf("int: %d .. %d, %d bits, signed %d, same as INT_MAX %d\n", std::numeric_limits<int>::min(),
           std::numeric_limits<int>::max(), std::numeric_limits<int>::digits, std::numeric_limits<int>::is_signed,
           std::numeric_limits<int>::max() == INT_MAX);
    printf("unsigned: %u .. %u, %d bits, signed %d\n", std::numeric_limits<unsigned>::min(),
           std::numeric_limits<unsigned>::max(), std::numeric_limits<unsigned>::digits,
           std::numeric_limits<unsigned>::is_signed);
    printf("long: %ld .. %ld, long long max %lld\n", std::numeric_limits<long>::min(), std::numeric_limits<long>::max(),
           std::numeric_limits<long long>::max());
    printf("char: %d .. %d, digits %d\n", std::numeric_limits<char>::min(), std::numeric_limits<char>::max(),
           std::numeric_limits<char>::digits);
    printf("float: max %g min %g lowest %g epsilon %g digits %d, same as FLT_EPSILON %d\n",
           std::numeric_limits<float>::max(), std::numeric_limits<float>::min(), std::numeric_limits<float>::lowest(),
           std::numeric_limits<float>::epsilon(), std::numeric_limits<float>::digits,
           std::numeric_limits<float>::epsilon() == FLT_EPSILON);
    printf("double: max %.17g epsilon %.17g digits %d digits10 %d\n", std::numeric_limits<double>::max(),
           std::numeric_limits<double>::epsilon(), std::numeric_limits<double>::digits,
           std::numeric_limits<double>::digits10);
    double inf = std::numeric_limits<double>::infinity();
    float nan = std::numeric_limits<float>::quiet_NaN();
    printf("infinity %f, -infinity %f, inf > max %d, nan == nan %d, integer %d %d\n", inf, -inf,
           inf > std::numeric_limits<double>::max(), nan == nan, std::numeric_limits<int>::is_integer,
           std::numeric_limits<float>::is_integer);
    cudaFree(d_in);
    cudaFree(d_out);
    return 0;
}
