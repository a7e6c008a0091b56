// Looking at float bits: a union on the host, __float_as_int / __int_as_float on the
// device, reinterpret_cast of a buffer, and a packed RGBA word built with shifts.
#include <cstdio>
#include <cstdint>
#include <cstring>

union FloatBits {
    float f;
    uint32_t u;
};

__global__ void decompose(const float *in, int *exponent, int *mantissa, float *negated, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    int bits = __float_as_int(in[i]);
    exponent[i] = ((bits >> 23) & 0xff) - 127;
    mantissa[i] = bits & 0x7fffff;
    negated[i] = __int_as_float(bits ^ 0x80000000);
}

__global__ void pack(const unsigned char *rgba, uint32_t *words, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        const uchar4 *px = reinterpret_cast<const uchar4 *>(rgba);
        uchar4 p = px[i];
        words[i] = (uint32_t)p.x << 24 | (uint32_t)p.y << 16 | (uint32_t)p.z << 8 | p.w;
    }
}

int main()
{
    const int n = 64;
    float in[n];
    for (int i = 0; i < n; i++) in[i] = (float)(i + 1) * 0.375f;
    float *d_in, *d_neg;
    int *d_e, *d_m;
    cudaMalloc(&d_in, sizeof(in));
    cudaMalloc(&d_neg, sizeof(in));
    cudaMalloc(&d_e, n * sizeof(int));
    cudaMalloc(&d_m, n * sizeof(int));
    cudaMemcpy(d_in, in, sizeof(in), cudaMemcpyHostToDevice);
    decompose<<<1, n>>>(d_in, d_e, d_m, d_neg, n);
    int e[n], m[n];
    float neg[n];
    cudaMemcpy(e, d_e, sizeof(e), cudaMemcpyDeviceToHost);
    cudaMemcpy(m, d_m, sizeof(m), cudaMemcpyDeviceToHost);
    cudaMemcpy(neg, d_neg, sizeof(neg), cudaMemcpyDeviceToHost);
    int agree = 0;
    for (int i = 0; i < n; i++) {
        FloatBits fb;
        fb.f = in[i];
        agree += (int)((fb.u >> 23) & 0xff) - 127 == e[i] && (int)(fb.u & 0x7fffff) == m[i] && neg[i] == -in[i];
    }
    printf("in[9] = %g: exponent %d mantissa 0x%06x negated %g\n", in[9], e[9], m[9], neg[9]);
    printf("host union agrees on %d of %d\n", agree, n);

    unsigned char rgba[4 * n];
    for (int i = 0; i < 4 * n; i++) rgba[i] = (unsigned char)(i * 5);
    unsigned char *d_rgba;
    uint32_t *d_w, w[n];
    cudaMalloc(&d_rgba, sizeof(rgba));
    cudaMalloc(&d_w, sizeof(w));
    cudaMemcpy(d_rgba, rgba, sizeof(rgba), cudaMemcpyHostToDevice);
    pack<<<1, n>>>(d_rgba, d_w, n);
    cudaMemcpy(w, d_w, sizeof(w), cudaMemcpyDeviceToHost);
    uint32_t x = 0;
    for (int i = 0; i < n; i++) x ^= w[i];
    float f;
    uint32_t one = 0x3f800000u;
    memcpy(&f, &one, sizeof f);
    printf("w[0] = %08x w[63] = %08x xor %08x, 0x3f800000 is %g\n", w[0], w[63], x, f);
    cudaFree(d_in);
    cudaFree(d_neg);
    cudaFree(d_e);
    cudaFree(d_m);
    cudaFree(d_rgba);
    cudaFree(d_w);
    return 0;
}
