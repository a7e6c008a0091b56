// Operator overloading on a small complex struct used in device code (CUDA by Example's
// cuComplex style), over Gaussian integers so every value is exact.
#include <stdio.h>

struct cuComplex {
    float r;
    float i;
    __host__ __device__ cuComplex(float a, float b) : r(a), i(b) {}
    __host__ __device__ float magnitude2(void) const { return r * r + i * i; }
    __host__ __device__ cuComplex operator*(const cuComplex &a) const
    {
        return cuComplex(r * a.r - i * a.i, i * a.r + r * a.i);
    }
    __host__ __device__ cuComplex operator+(const cuComplex &a) const { return cuComplex(r + a.r, i + a.i); }
    __host__ __device__ cuComplex operator-(const cuComplex &a) const { return cuComplex(r - a.r, i - a.i); }
    __host__ __device__ cuComplex &operator+=(const cuComplex &a)
    {
        r += a.r;
        i += a.i;
        return *this;
    }
    __host__ __device__ bool operator==(const cuComplex &a) const { return r == a.r && i == a.i; }
};

__host__ __device__ cuComplex operator*(float s, const cuComplex &z) { return cuComplex(s * z.r, s * z.i); }

// z -> z*z + c, a few steps, from small Gaussian-integer starting points
__device__ int escape(cuComplex z, cuComplex c, int maxIter)
{
    for (int k = 0; k < maxIter; k++) {
        z = z * z + c;
        if (z.magnitude2() > 1000.0f) return k;
    }
    return maxIter;
}

__global__ void kernel(int *steps, float *mags, int w, int h)
{
    int x = blockIdx.x * blockDim.x + threadIdx.x;
    int y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x >= w || y >= h) return;
    int offset = x + y * w;
    cuComplex c((float)(x - w / 2) / 4.0f, (float)(y - h / 2) / 4.0f);
    cuComplex z(0.0f, 0.0f);
    steps[offset] = escape(z, c, 4);
    cuComplex p(1.0f, 1.0f);
    cuComplex acc(0.0f, 0.0f);
    for (int k = 0; k < (x % 4); k++) {
        p = p * cuComplex(1.0f, 2.0f);
        acc += 2.0f * p - cuComplex(1.0f, 0.0f);
    }
    mags[offset] = acc.magnitude2();
}

int main(void)
{
    const int W = 32, H = 24;
    int *dev_steps;
    float *dev_mags;
    cudaMalloc((void **)&dev_steps, W * H * sizeof(int));
    cudaMalloc((void **)&dev_mags, W * H * sizeof(float));
    dim3 block(8, 8);
    dim3 grid(W / 8, H / 8);
    kernel<<<grid, block>>>(dev_steps, dev_mags, W, H);

    int steps[W * H];
    float mags[W * H];
    cudaMemcpy(steps, dev_steps, sizeof(steps), cudaMemcpyDeviceToHost);
    cudaMemcpy(mags, dev_mags, sizeof(mags), cudaMemcpyDeviceToHost);

    for (int y = 0; y < H; y += 3) {
        for (int x = 0; x < W; x++) putchar(" .:-=+*#"[steps[x + y * W] > 4 ? 7 : steps[x + y * W] + 1]);
        putchar('\n');
    }
    long total = 0;
    double magsum = 0;
    for (int i = 0; i < W * H; i++) {
        total += steps[i];
        magsum += mags[i];
    }
    printf("total steps %ld, magnitude sum %.1f\n", total, magsum);
    cuComplex a(3.0f, -2.0f), b(-1.0f, 4.0f);
    cuComplex c = a * b + a;
    printf("host: (3-2i)*(-1+4i)+(3-2i) = %.0f%+.0fi equal=%d\n", c.r, c.i, c == cuComplex(8.0f, 12.0f));
    cudaFree(dev_steps);
    cudaFree(dev_mags);
    return 0;
}
