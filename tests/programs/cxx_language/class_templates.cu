// Class templates as CUDA code uses them: a matrix view with operator() passed to a
// kernel by value, a fixed array with a default argument and an out-of-class member,
// a static member, nested arguments (`Box<Box<int>>`), explicit and partial
// specialisations, conversion operators and the SharedMemory<T> idiom.
// Kernel output worked out by hand: scale<<<1, 6>>> doubles m(r, c) = r * 3 + c of a
// 2x3 matrix (0 2 4 6 8 10); blockSum<T> sums 0..63 in shared memory: 2016 for int and
// 2016.0 for double (the specialisation's own shared array).
#include <cstdio>

template <typename T>
struct MatrixView {
    T *data;
    int rows, cols;
    __host__ __device__ T &operator()(int r, int c) { return data[r * cols + c]; }
};

template <typename T, int N = 4>
class Array {
public:
    __host__ __device__ T &operator[](int i) { return v_[i]; }
    __host__ __device__ T sum() const;
    static int made;
    int size() const { return N; }

private:
    T v_[N];
};

template <typename T, int N>
__host__ __device__ T Array<T, N>::sum() const
{
    T s = 0;
    for (int i = 0; i < N; i++) s += v_[i];
    return s;
}

template <typename T, int N>
int Array<T, N>::made = 7;

template <typename T>
struct Box {
    T value;
    T get() const { return value; }
};

template <typename T>
struct Traits {
    static const int kind = 0;
};
template <typename T>
struct Traits<T *> {
    static const int kind = 1;
};
template <>
struct Traits<double> {
    static const int kind = 2;
};

template <class T>
struct SharedMemory {
    __device__ inline operator T *()
    {
        extern __shared__ int __smem[];
        return (T *)__smem;
    }
};
template <>
struct SharedMemory<double> {
    __device__ inline operator double *()
    {
        extern __shared__ double __smem_d[];
        return (double *)__smem_d;
    }
};

template <typename T>
__global__ void scale(MatrixView<T> m)
{
    int r = threadIdx.x / m.cols, c = threadIdx.x % m.cols;
    m(r, c) = m(r, c) * 2;
}

template <typename T>
__global__ void blockSum(T *out)
{
    T *s = SharedMemory<T>();
    s[threadIdx.x] = (T)threadIdx.x;
    __syncthreads();
    for (int k = blockDim.x / 2; k > 0; k >>= 1) {
        if (threadIdx.x < k) s[threadIdx.x] += s[threadIdx.x + k];
        __syncthreads();
    }
    if (threadIdx.x == 0) *out = s[0];
}

struct Handle {
    int *p;
    explicit operator bool() const { return p != nullptr; }
    operator int *() const { return p; }
};

template <typename T>
T twice(Box<T> b) { return b.get() * 2; }

int main()
{
    int h[6];
    for (int i = 0; i < 6; i++) h[i] = i;
    int *d;
    cudaMalloc(&d, sizeof(h));
    cudaMemcpy(d, h, sizeof(h), cudaMemcpyHostToDevice);
    MatrixView<int> m = {d, 2, 3};
    scale<<<1, 6>>>(m);
    cudaMemcpy(h, d, sizeof(h), cudaMemcpyDeviceToHost);
    printf("scaled: %d %d %d %d %d %d\n", h[0], h[1], h[2], h[3], h[4], h[5]);

    int *dsum;
    double *dsumd;
    cudaMalloc(&dsum, sizeof(int));
    cudaMalloc(&dsumd, sizeof(double));
    blockSum<<<1, 64, 64 * sizeof(int)>>>(dsum);
    blockSum<<<1, 64, 64 * sizeof(double)>>>(dsumd);
    int si;
    double sd;
    cudaMemcpy(&si, dsum, sizeof(int), cudaMemcpyDeviceToHost);
    cudaMemcpy(&sd, dsumd, sizeof(double), cudaMemcpyDeviceToHost);
    printf("block sums: %d %.1f\n", si, sd);

    Array<int> a;
    Array<float, 3> f;
    for (int i = 0; i < a.size(); i++) a[i] = i * i;
    for (int i = 0; i < f.size(); i++) f[i] = i + 0.5f;
    printf("sums: %d %.1f sizes %d %d made %d %d\n", a.sum(), f.sum(), a.size(), f.size(), Array<int>::made,
           Array<float, 3>::made);

    Box<Box<int>> nested = {{21}};
    Box<int> inner = nested.get();
    Box<float> bf = {1.25f};
    printf("nested %d twice %d %.2f\n", inner.get(), twice(inner), twice(bf));
    printf("traits %d %d %d\n", Traits<int>::kind, Traits<float *>::kind, Traits<double>::kind);

    Handle none = {nullptr}, some = {h};
    int *raw = some;
    printf("handles %s %s first %d\n", none ? "set" : "null", some ? "set" : "null", raw[1]);
    cudaFree(d);
    cudaFree(dsum);
    cudaFree(dsumd);
    return 0;
}
