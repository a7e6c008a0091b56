// The conversion intrinsics (F2I with its rounding, I2F, F2F) and __ldg of several types
// through the read-only cache.  By hand: rn rounds half to even, rz toward zero, ru up,
// rd down; out of range saturates to the type's limits, NaN gives 0 (cvt.rni.s32.f32);
// 16777217 is not a float (rounds to 16777216), 4294967295 rounds to 4294967296, the
// double 0.1 rounds to the float 0.100000001; -1e10 rounded down saturates to INT_MIN.
#include <cstdio>
#include <cstring>

__global__ void convert(const float *x, int n, int *out) {
    int t = threadIdx.x;
    if (t < n) {
        float v = __ldg(&x[t]);
        out[t * 6 + 0] = __float2int_rn(v);
        out[t * 6 + 1] = __float2int_rz(v);
        out[t * 6 + 2] = __float2int_ru(v);
        out[t * 6 + 3] = __float2int_rd(v);
        out[t * 6 + 4] = (int)__float2uint_rn(v);
        out[t * 6 + 5] = (int)(__float2ll_rd(v) >> 32);
    }
}

__global__ void widen(const double *d, const char *c, const unsigned long long *u, float *f, long long *l) {
    f[0] = __int2float_rn(16777217);
    f[1] = __uint2float_rn(4294967295u);
    f[2] = __double2float_rn(__ldg(d));
    f[3] = __ll2float_rn(-(1ll << 40));
    l[0] = __double2ll_rn(__ldg(d + 1));
    l[1] = __ldg(c) + __ldg(c + 1);
    l[2] = (long long)__ldg(u);
    l[3] = __double2int_rd(-__ldg(d + 1));
}

int main() {
    const int n = 8;
    float h_x[n] = {2.5f, -2.5f, 3.5f, -0.5f, 1.75f, 3e9f, -3e9f, 0.0f};   // [7]: NaN below
    float *d_x; int *d_out;
    cudaMalloc(&d_x, sizeof h_x);
    cudaMalloc(&d_out, n * 6 * sizeof(int));
    unsigned nan_bits = 0x7FC00000u;
    memcpy(&h_x[7], &nan_bits, 4);
    cudaMemcpy(d_x, h_x, sizeof h_x, cudaMemcpyHostToDevice);
    convert<<<1, 32>>>(d_x, n, d_out);
    int h_out[n * 6];
    cudaMemcpy(h_out, d_out, sizeof h_out, cudaMemcpyDeviceToHost);
    for (int t = 0; t < n; t++)
        printf("%g: rn %d rz %d ru %d rd %d uint_rn %d ll_rd>>32 %d\n", h_x[t], h_out[t * 6], h_out[t * 6 + 1],
               h_out[t * 6 + 2], h_out[t * 6 + 3], h_out[t * 6 + 4], h_out[t * 6 + 5]);

    double h_d[2] = {0.1, 1e10 + 0.5};
    char h_c[2] = {-3, 100};
    unsigned long long h_u = 1ull << 40;
    double *d_d; char *d_c; unsigned long long *d_u; float *d_f; long long *d_l;
    cudaMalloc(&d_d, sizeof h_d); cudaMalloc(&d_c, 2); cudaMalloc(&d_u, 8);
    cudaMalloc(&d_f, 4 * sizeof(float)); cudaMalloc(&d_l, 4 * sizeof(long long));
    cudaMemcpy(d_d, h_d, sizeof h_d, cudaMemcpyHostToDevice);
    cudaMemcpy(d_c, h_c, 2, cudaMemcpyHostToDevice);
    cudaMemcpy(d_u, &h_u, 8, cudaMemcpyHostToDevice);
    widen<<<1, 1>>>(d_d, d_c, d_u, d_f, d_l);
    float h_f[4]; long long h_l[4];
    cudaMemcpy(h_f, d_f, sizeof h_f, cudaMemcpyDeviceToHost);
    cudaMemcpy(h_l, d_l, sizeof h_l, cudaMemcpyDeviceToHost);
    printf("%.9g %.9g %.9g %.9g\n", h_f[0], h_f[1], h_f[2], h_f[3]);
    printf("%lld %lld %lld %lld\n", h_l[0], h_l[1], h_l[2], h_l[3]);
    return 0;
}
