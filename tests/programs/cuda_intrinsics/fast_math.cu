// The fast-math intrinsics as nvcc builds them (MUFU.EX2 / LG2 / SIN / COS / RCP / RSQ),
// the IEEE operations with their rounding named, __saturatef and the classification
// functions in a kernel.  The inputs are chosen so that the GPU's approximations give
// exact results (CUDA documents __expf's error as 2 + 1.16 * |x| ulp, __log2f's as 2^-22
// absolute, ...; for these inputs the exact result is a float the hardware returns):
//   __expf(0) = ex2(0 * log2 e) = 1         __exp10f(0) = 1      __log2f(8) = 3
//   __logf(1) = lg2(1) * ln 2 = 0          __log10f(1) = 0      __powf(2, 10) = ex2(10 * lg2 2) = 1024
//   __sinf(0) = 0  __cosf(0) = 1  __tanf(0) = 0  __sincosf(0) = 0, 1
//   __fdividef(3, 4) = 3 * rcp(4) = 0.75     rsqrtf(4) = 0.5      __frsqrt_rn(16) = 0.25
//   __saturatef(-1, 0.5, 2, NaN) = 0, 0.5, 1, 0
// The _rn operations are IEEE's round to nearest even: 1/3, sqrt(2) and (1 + 2^-23)^2 as
// floats, printed with 9 significant digits (what g++'s float arithmetic prints too); a fused
// multiply-add rounds once where __fmul_rn then a subtraction round twice.
#include <cstdio>
#include <cmath>

__global__ void fast(float *out, int *flags) {
    float zero = threadIdx.x, one = zero + 1.0f, nan = sqrtf(-one), inf = one / zero;
    out[0] = __expf(zero);
    out[1] = __exp10f(zero);
    out[2] = __log2f(8.0f * one);
    out[3] = __logf(one);
    out[4] = __log10f(one);
    out[5] = __powf(2.0f * one, 10.0f);
    out[6] = __sinf(zero);
    out[7] = __cosf(zero);
    out[8] = __tanf(zero);
    __sincosf(zero, &out[9], &out[10]);
    out[11] = __fdividef(3.0f, 4.0f * one);
    out[12] = rsqrtf(4.0f * one);
    out[13] = __frsqrt_rn(16.0f * one);
    out[14] = __saturatef(-one);
    out[15] = __saturatef(0.5f * one);
    out[16] = __saturatef(2.0f * one);
    out[17] = __saturatef(nan);
    out[18] = __fdiv_rn(one, 3.0f);
    out[19] = __fsqrt_rn(2.0f * one);
    float e = one + 0.000244140625f;   // 1 + 2^-12
    out[20] = __fmaf_rn(e, e, -one);   // 2^-11 + 2^-24 exactly: rounded once
    out[21] = __fmul_rn(e, e) - one;   // the product 1 + 2^-11 + 2^-24 rounds (a tie, to even) first: 2^-11
    out[22] = __fadd_rn(0.1f, 0.2f * one);
    out[23] = __fsub_rn(0.3f, 0.1f * one);
    flags[0] = isnan(nan); flags[1] = isnan(one);
    flags[2] = isinf(inf); flags[3] = isinf(-inf); flags[4] = isinf(nan);
    flags[5] = isfinite(one); flags[6] = isfinite(inf); flags[7] = isfinite(nan);
    flags[8] = signbit(-zero) != 0; flags[9] = signbit(one) != 0; flags[10] = signbit(-inf) != 0;
}

int main() {
    float *d_out; int *d_flags;
    cudaMalloc(&d_out, 24 * sizeof(float));
    cudaMalloc(&d_flags, 11 * sizeof(int));
    fast<<<1, 1>>>(d_out, d_flags);
    float h[24]; int f[11];
    cudaMemcpy(h, d_out, sizeof h, cudaMemcpyDeviceToHost);
    cudaMemcpy(f, d_flags, sizeof f, cudaMemcpyDeviceToHost);
    const char *names[24] = {"__expf(0)", "__exp10f(0)", "__log2f(8)", "__logf(1)", "__log10f(1)", "__powf(2,10)",
                             "__sinf(0)", "__cosf(0)", "__tanf(0)", "sincos.sin", "sincos.cos", "__fdividef(3,4)",
                             "rsqrtf(4)", "__frsqrt_rn(16)", "sat(-1)", "sat(0.5)", "sat(2)", "sat(nan)",
                             "__fdiv_rn(1,3)", "__fsqrt_rn(2)", "__fmaf_rn", "__fmul_rn", "__fadd_rn", "__fsub_rn"};
    for (int i = 0; i < 24; i++) printf("%s = %.9g\n", names[i], h[i]);
    printf("isnan %d %d isinf %d %d %d isfinite %d %d %d signbit %d %d %d\n", f[0], f[1], f[2], f[3], f[4], f[5],
           f[6], f[7], f[8], f[9], f[10]);
    return 0;
}
