// The bit patterns of float operations on subnormal (denormal) inputs and results, in
// device code; ftz_default.cu, ftz_true.cu and ftz_fast_math.cu build it without and with
// -ftz=true and with -use_fast_math (which implies -ftz=true).  Under -ftz=true every f32
// instruction reads a subnormal operand as a zero of its sign and writes a subnormal
// result as a zero of its sign; doubles are never flushed.
#include <cstdio>

#define OPS 16

__global__ void ops(const unsigned *a_bits, const unsigned *b_bits, unsigned *out) {
    int i = threadIdx.x;
    float a = __uint_as_float(a_bits[i]), b = __uint_as_float(b_bits[i]);
    unsigned *o = out + OPS * i;
    o[0] = __float_as_uint(a + b);
    o[1] = __float_as_uint(a - b);
    o[2] = __float_as_uint(a * b);
    o[3] = __float_as_uint(fmaf(a, b, a));
    o[4] = __float_as_uint(fmaf(a, b, b));
    o[5] = __float_as_uint(-a);
    o[6] = __float_as_uint(fabsf(b));
    o[7] = __float_as_uint(fminf(a, b));
    o[8] = __float_as_uint(fmaxf(a, b));
    o[9] = (a > 0.0f) | (a == b) << 1 | (a < b) << 2 | (b != 0.0f) << 3;
    o[10] = __float_as_uint(a / 2.0f);
    o[11] = __float_as_uint((float)((double)a * 0.25));     // F2F.F64.F32, DMUL, F2F.F32.F64
    o[12] = (unsigned)(__double_as_longlong((double)b) >> 29);   // the f32 bits as a double holds them
    o[13] = __float_as_uint(a * 0.5f + b);
    o[14] = (unsigned)(int)(a * 16777216.0f);
    o[15] = __float_as_uint(b * 4.0f);
}

int main() {
    // pairs (a, b): subnormals of both signs, the smallest normal, results that are
    // subnormal before rounding and normal after, and plain normal values
    const unsigned a[] = {0x00000001u, 0x80400000u, 0x00800000u, 0x007fffffu, 0x3f7fffffu, 0x3f800000u,
                          0x00800001u, 0x80000003u, 0x3f800000u, 0x00800000u};
    const unsigned b[] = {0x00000001u, 0x3f800000u, 0x3f000000u, 0x00000001u, 0x00800000u, 0x00400000u,
                          0x80800000u, 0x00000002u, 0x80000001u, 0xbf7fffffu};
    const int n = sizeof a / sizeof a[0];
    unsigned *da, *db, *dout, out[OPS * n];
    cudaMalloc(&da, sizeof a);
    cudaMalloc(&db, sizeof b);
    cudaMalloc(&dout, sizeof out);
    cudaMemcpy(da, a, sizeof a, cudaMemcpyHostToDevice);
    cudaMemcpy(db, b, sizeof b, cudaMemcpyHostToDevice);
    ops<<<1, n>>>(da, db, dout);
    cudaMemcpy(out, dout, sizeof out, cudaMemcpyDeviceToHost);
    for (int i = 0; i < n; i++) {
        printf("%08x %08x:", a[i], b[i]);
        for (int k = 0; k < OPS; k++)
            printf(" %08x", out[OPS * i + k]);
        printf("\n");
    }
    cudaFree(da);
    cudaFree(db);
    cudaFree(dout);
    return 0;
}
