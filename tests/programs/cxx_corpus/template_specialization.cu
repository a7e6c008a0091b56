// Function templates with type and non-type parameters, an explicit specialisation, a
// struct template with partial specialisation, and type traits written by hand.
#include <cstdio>

template <typename T>
struct TypeName {
    static const char *get() { return "unknown"; }
};
template <>
struct TypeName<int> {
    static const char *get() { return "int"; }
};
template <>
struct TypeName<float> {
    static const char *get() { return "float"; }
};
template <>
struct TypeName<double> {
    static const char *get() { return "double"; }
};

template <typename T, int N>
struct FixedVec {
    T v[N];
    __host__ __device__ T sum() const
    {
        T s = 0;
        for (int i = 0; i < N; i++) s += v[i];
        return s;
    }
};

// partial specialisation: a one-element vector
template <typename T>
struct FixedVec<T, 1> {
    T v[1];
    __host__ __device__ T sum() const { return v[0] * 100; }
};

template <typename T>
struct IsPointer {
    static const bool value = false;
};
template <typename T>
struct IsPointer<T *> {
    static const bool value = true;
};

template <typename T>
__device__ T combine(T a, T b) { return a + b; }

template <>
__device__ int combine<int>(int a, int b) { return a * b; }

template <typename T, int N>
__global__ void kernel(const T *in, T *out)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    FixedVec<T, N> fv;
    for (int k = 0; k < N; k++) fv.v[k] = in[(i + k) % 64];
    out[i] = combine(fv.sum(), (T)2);
}

template <typename T, int N>
void run()
{
    T h[64], r[64];
    for (int i = 0; i < 64; i++) h[i] = (T)(i % 9);
    T *dIn, *dOut;
    cudaMalloc(&dIn, sizeof(h));
    cudaMalloc(&dOut, sizeof(r));
    cudaMemcpy(dIn, h, sizeof(h), cudaMemcpyHostToDevice);
    kernel<T, N><<<2, 32>>>(dIn, dOut);
    cudaMemcpy(r, dOut, sizeof(r), cudaMemcpyDeviceToHost);
    double s = 0;
    for (int i = 0; i < 64; i++) s += (double)r[i];
    printf("%-6s N=%d: r[0]=%g r[63]=%g sum=%g\n", TypeName<T>::get(), N, (double)r[0], (double)r[63], s);
    cudaFree(dIn);
    cudaFree(dOut);
}

int main()
{
    run<int, 4>();
    run<float, 4>();
    run<double, 3>();
    run<int, 1>();
    run<float, 1>();
    printf("TypeName<char>: %s, IsPointer<int*>: %d, IsPointer<int>: %d\n", TypeName<char>::get(),
           IsPointer<int *>::value, IsPointer<int>::value);
    return 0;
}
