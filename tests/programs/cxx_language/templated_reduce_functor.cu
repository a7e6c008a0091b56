// A templated shared-memory reduction as in the CUDA samples' reduction chapter: the
// block size is a template parameter and the combining operation a functor with a
// __device__ operator() and an identity.  Input v[i] = (i * 7) % 23 for i < 1000.
// Sum, max and min of that are integers, so the order of combination does not matter:
// worked out with the same loop on the host (and checked here against it).
#include <iostream>
#include <vector>

struct Sum {
    __device__ __host__ int operator()(int a, int b) const { return a + b; }
    static __device__ __host__ int identity() { return 0; }
};
struct Max {
    __device__ __host__ int operator()(int a, int b) const { return a > b ? a : b; }
    static __device__ __host__ int identity() { return -1000000; }
};
struct Min {
    __device__ __host__ int operator()(int a, int b) const { return a < b ? a : b; }
    static __device__ __host__ int identity() { return 1000000; }
};

template <int BLOCK, typename Op>
__global__ void reduce(const int *in, int *out, int n, Op op)
{
    __shared__ int buf[BLOCK];
    int tid = threadIdx.x;
    int acc = Op::identity();
    for (int i = blockIdx.x * BLOCK + tid; i < n; i += BLOCK * gridDim.x) acc = op(acc, in[i]);
    buf[tid] = acc;
    __syncthreads();
    for (int s = BLOCK / 2; s > 0; s >>= 1) {
        if (tid < s) buf[tid] = op(buf[tid], buf[tid + s]);
        __syncthreads();
    }
    if (tid == 0) out[blockIdx.x] = buf[0];
}

template <typename Op>
int reduceOnDevice(const int *d_in, int n, Op op)
{
    const int blocks = 4;
    int *d_part;
    cudaMalloc(&d_part, blocks * sizeof(int));
    reduce<128, Op><<<blocks, 128>>>(d_in, d_part, n, op);
    std::vector<int> part(blocks);
    cudaMemcpy(part.data(), d_part, blocks * sizeof(int), cudaMemcpyDeviceToHost);
    cudaFree(d_part);
    int r = Op::identity();
    for (int p : part) r = op(r, p);
    return r;
}

template <typename Op>
int reduceOnHost(const std::vector<int> &v, Op op)
{
    int r = Op::identity();
    for (int x : v) r = op(r, x);
    return r;
}

int main()
{
    const int n = 1000;
    std::vector<int> v(n);
    for (int i = 0; i < n; ++i) v[i] = (i * 7) % 23;
    int *d;
    cudaMalloc(&d, n * sizeof(int));
    cudaMemcpy(d, v.data(), n * sizeof(int), cudaMemcpyHostToDevice);
    int s = reduceOnDevice(d, n, Sum());
    int mx = reduceOnDevice(d, n, Max());
    int mn = reduceOnDevice(d, n, Min());
    std::cout << "sum " << s << (s == reduceOnHost(v, Sum()) ? " ok" : " WRONG") << std::endl;
    std::cout << "max " << mx << (mx == reduceOnHost(v, Max()) ? " ok" : " WRONG") << std::endl;
    std::cout << "min " << mn << (mn == reduceOnHost(v, Min()) ? " ok" : " WRONG") << std::endl;
    cudaFree(d);
    return 0;
}
