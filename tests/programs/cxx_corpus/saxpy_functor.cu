// Functors passed by value to kernels: a struct with a __device__ operator() is the
// kernel parameter, and a template kernel applies any such functor.
#include <cstdio>
#include <cuda_runtime.h>

struct Saxpy {
    float a;
    __host__ __device__ Saxpy(float a_) : a(a_) {}
    __host__ __device__ float operator()(float x, float y) const { return a * x + y; }
};

struct Clamp {
    float lo, hi;
    __host__ __device__ float operator()(float x, float y) const
    {
        float v = x + y;
        return v < lo ? lo : (v > hi ? hi : v);
    }
};

struct Params {
    int n;
    int stride;
    float scale;
};

__global__ void saxpy(Saxpy op, int n, const float *x, float *y)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) y[i] = op(x[i], y[i]);
}

template <typename Op>
__global__ void transform(Op op, Params p, const float *x, float *y)
{
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < p.n; i += p.stride)
        y[i] = op(x[i] * p.scale, y[i]);
}

int main()
{
    const int n = 2000;
    float *x = new float[n];
    float *y = new float[n];
    for (int i = 0; i < n; i++) {
        x[i] = (float)(i % 17);
        y[i] = (float)(i % 5) - 2.0f;
    }
    float *dx, *dy;
    cudaMalloc(&dx, n * sizeof(float));
    cudaMalloc(&dy, n * sizeof(float));
    cudaMemcpy(dx, x, n * sizeof(float), cudaMemcpyHostToDevice);
    cudaMemcpy(dy, y, n * sizeof(float), cudaMemcpyHostToDevice);

    Saxpy op(2.0f);
    saxpy<<<(n + 255) / 256, 256>>>(op, n, dx, dy);

    Params p = {n, 4 * 128, 0.5f};
    Clamp clamp = {-1.0f, 20.0f};
    transform<<<4, 128>>>(clamp, p, dx, dy);
    transform<<<4, 128>>>(Saxpy(-1.0f), p, dx, dy);

    float *out = new float[n];
    cudaMemcpy(out, dy, n * sizeof(float), cudaMemcpyDeviceToHost);
    cudaError_t err = cudaGetLastError();
    printf("last error: %s\n", cudaGetErrorString(err));

    int errors = 0;
    double sum = 0;
    for (int i = 0; i < n; i++) {
        float r = op(x[i], y[i]);
        r = clamp(x[i] * p.scale, r);
        r = Saxpy(-1.0f)(x[i] * p.scale, r);
        if (r != out[i]) errors++;
        sum += out[i];
    }
    printf("y[0..4] = %.2f %.2f %.2f %.2f %.2f\n", out[0], out[1], out[2], out[3], out[4]);
    printf("sum = %.2f, errors = %d\n", sum, errors);
    printf("%s\n", errors == 0 ? "PASS" : "FAIL");
    cudaFree(dx);
    cudaFree(dy);
    delete[] x;
    delete[] y;
    delete[] out;
    return 0;
}
