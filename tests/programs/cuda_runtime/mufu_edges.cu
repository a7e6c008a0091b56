// The fast intrinsics at the edges of their range, where nvcc's instructions round MUFU
// decide the result (values an H100 gave: tests/data/groundtruth/mufu_h100.npz):
//   __sinf(1e-20) = 0 and __sinf(-1e-20) = -0: FMUL.RZ by 1/(2 pi) gives a turn below
//     2^-25, which MUFU.SIN reads as 0 (a correctly rounded sin would give 1e-20)
//   __sinf(3e38) = 0, __cosf(3e38) = 1: a float that large is a whole number of turns
//   __expf(-100) = 3.78350585e-44, a subnormal: EX2 of half the exponent, squared
//   __expf(-104) = 0: 2^-150 rounds to 0
//   __fdividef(1, 3e38) = 0: MUFU.RCP flushes its subnormal result to zero
//   __fdividef(2, 1e-45) = inf: y is subnormal, so x and y are scaled by 2^24 first and
//     RCP(2^-149 * 2^24) * (2 * 2^24) = 2^125 * 2^25 overflows
//   __logf(0) = -inf, __log2f(-1) = nan, rsqrtf(-0) = -inf, __powf(0, 2) = 0
#include <cstdio>

__global__ void edges(float *out, float one) {
    out[0] = __sinf(1e-20f * one);
    out[1] = __sinf(-1e-20f * one);
    out[2] = __sinf(3e38f * one);
    out[3] = __cosf(3e38f * one);
    out[4] = __expf(-100.0f * one);
    out[5] = __expf(-104.0f * one);
    out[6] = __fdividef(one, 3e38f * one);
    out[7] = __fdividef(2.0f * one, 1e-45f * one);
    out[8] = __logf(0.0f * one);
    out[9] = __log2f(-one);
    out[10] = rsqrtf(-0.0f * one);
    out[11] = __powf(0.0f * one, 2.0f);
}

int main() {
    float *d_out, out[12];
    cudaMalloc(&d_out, sizeof out);
    edges<<<1, 1>>>(d_out, 1.0f);
    cudaMemcpy(out, d_out, sizeof out, cudaMemcpyDeviceToHost);
    const char *names[12] = {"__sinf(1e-20)", "__sinf(-1e-20)", "__sinf(3e38)", "__cosf(3e38)", "__expf(-100)",
                             "__expf(-104)", "__fdividef(1,3e38)", "__fdividef(2,1e-45)", "__logf(0)",
                             "__log2f(-1)", "rsqrtf(-0)", "__powf(0,2)"};
    for (int i = 0; i < 12; i++) printf("%s = %.9g\n", names[i], out[i]);
    cudaFree(d_out);
    return 0;
}
