// Structs and classes by value: kernel parameters, device functions' parameters and
// returns, member functions called from kernels.
#include <stdio.h>

struct Saxpy {
    float a;
    int n;
    __host__ __device__ float apply(float x, float y) const { return a * x + y; }
};

class Vec2 {
public:
    __host__ __device__ Vec2(float x_, float y_) : x(x_), y(y_) {}
    __host__ __device__ Vec2() : x(0.0f), y(0.0f) {}
    __host__ __device__ float dot(Vec2 o) const { return x * o.x + y * o.y; }
    __host__ __device__ Vec2 scaled(float s) const { return Vec2(x * s, y * s); }
    float x, y;
};

__device__ Vec2 rotate90(Vec2 v) { Vec2 r(-v.y, v.x); return r; }

__global__ void saxpy(Saxpy op, const float *x, float *y) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < op.n) y[i] = op.apply(x[i], y[i]);
}

__global__ void vectors(Vec2 base, float *out) {
    int i = threadIdx.x;
    Vec2 v = base.scaled((float)i);
    Vec2 w = rotate90(v);
    out[2 * i] = w.x;
    out[2 * i + 1] = v.dot(Vec2(1.0f, 1.0f));
}

int main() {
    const int n = 8;
    float hx[n], hy[n];
    for (int i = 0; i < n; i++) { hx[i] = i; hy[i] = 1.0f; }
    float *dx, *dy;
    cudaMalloc(&dx, n * sizeof(float));
    cudaMalloc(&dy, n * sizeof(float));
    cudaMemcpy(dx, hx, n * sizeof(float), cudaMemcpyHostToDevice);
    cudaMemcpy(dy, hy, n * sizeof(float), cudaMemcpyHostToDevice);
    Saxpy op;
    op.a = 2.0f;
    op.n = 6;
    saxpy<<<2, 4>>>(op, dx, dy);
    cudaMemcpy(hy, dy, n * sizeof(float), cudaMemcpyDeviceToHost);
    for (int i = 0; i < n; i++) printf("%g ", hy[i]);
    printf("\n");
    float *dout, hout[8];
    cudaMalloc(&dout, 8 * sizeof(float));
    vectors<<<1, 4>>>(Vec2(1.0f, 2.0f), dout);
    cudaMemcpy(hout, dout, 8 * sizeof(float), cudaMemcpyDeviceToHost);
    for (int i = 0; i < 8; i++) printf("%g ", hout[i]);
    printf("\n");
    Vec2 h = Vec2(3.0f, 4.0f).scaled(2.0f);
    printf("%g %g %g\n", h.x, h.y, h.dot(h));
    cudaFree(dx); cudaFree(dy); cudaFree(dout);
    return 0;
}
