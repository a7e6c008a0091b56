// The integer intrinsics of the CUDA Math API, one input per thread (as a course's
// "bit tricks" exercise): __ffs, __clz, __popc, __brev and their 64-bit forms,
// __byte_perm and the funnel shifts.  Worked out by hand (two's complement bits):
//   x = 0x00000000: ffs 0, clz 32, popc 0, brev 0
//   x = 0x00000001: ffs 1, clz 31, popc 1, brev 0x80000000
//   x = 0x80000000: ffs 32, clz 0, popc 1, brev 1
//   x = 0x00F0F000: ffs 13, clz 8, popc 8, brev 0x000F0F00
// 64-bit, y = x << 32 | 0x10 (thread 0: y = 0): ffsll 5 (0), clzll = clz(x) (64), popcll =
// popc(x) + 1 (0); the funnel shifts of 0x01234567:89ABCDEF by 0, 12, .., 48 (mod 32, or at most 32 for _lc/_rc).
#include <cstdio>

__global__ void bits(const unsigned *in, unsigned *out32, unsigned long long *out64) {
    int t = threadIdx.x;
    unsigned x = in[t];
    unsigned long long y = ((unsigned long long)x << 32) | (t == 0 ? 0u : 0x10u);
    out32[t * 8 + 0] = __ffs(x);
    out32[t * 8 + 1] = __clz(x);
    out32[t * 8 + 2] = __popc(x);
    out32[t * 8 + 3] = __brev(x);
    out32[t * 8 + 4] = __ffsll(y);
    out32[t * 8 + 5] = __clzll(y);
    out32[t * 8 + 6] = __popcll(y);
    out32[t * 8 + 7] = __byte_perm(x, 0x11223344u, 0x7531);
    out64[t] = __brevll(y);
}

__global__ void funnel(unsigned lo, unsigned hi, unsigned *out) {
    unsigned s = threadIdx.x * 12;          // 0, 12, 24, 36, 48
    out[threadIdx.x * 4 + 0] = __funnelshift_l(lo, hi, s);
    out[threadIdx.x * 4 + 1] = __funnelshift_r(lo, hi, s);
    out[threadIdx.x * 4 + 2] = __funnelshift_lc(lo, hi, s);
    out[threadIdx.x * 4 + 3] = __funnelshift_rc(lo, hi, s);
}

int main() {
    unsigned h_in[4] = {0x00000000u, 0x00000001u, 0x80000000u, 0x00F0F000u};
    unsigned *d_in, *d_out, *d_f;
    unsigned long long *d_64;
    cudaMalloc(&d_in, sizeof h_in);
    cudaMalloc(&d_out, 32 * sizeof(unsigned));
    cudaMalloc(&d_64, 4 * sizeof(unsigned long long));
    cudaMalloc(&d_f, 20 * sizeof(unsigned));
    cudaMemcpy(d_in, h_in, sizeof h_in, cudaMemcpyHostToDevice);
    bits<<<1, 4>>>(d_in, d_out, d_64);
    funnel<<<1, 5>>>(0x89ABCDEFu, 0x01234567u, d_f);
    unsigned h_out[32], h_f[20];
    unsigned long long h_64[4];
    cudaMemcpy(h_out, d_out, sizeof h_out, cudaMemcpyDeviceToHost);
    cudaMemcpy(h_64, d_64, sizeof h_64, cudaMemcpyDeviceToHost);
    cudaMemcpy(h_f, d_f, sizeof h_f, cudaMemcpyDeviceToHost);
    for (int t = 0; t < 4; t++) {
        printf("x=%08x ffs=%u clz=%u popc=%u brev=%08x ffsll=%u clzll=%u popcll=%u perm=%08x brevll=%016llx\n",
               h_in[t], h_out[t * 8], h_out[t * 8 + 1], h_out[t * 8 + 2], h_out[t * 8 + 3], h_out[t * 8 + 4],
               h_out[t * 8 + 5], h_out[t * 8 + 6], h_out[t * 8 + 7], h_64[t]);
    }
    for (int t = 0; t < 5; t++)
        printf("shift %2d: l=%08x r=%08x lc=%08x rc=%08x\n", t * 12, h_f[t * 4], h_f[t * 4 + 1], h_f[t * 4 + 2],
               h_f[t * 4 + 3]);
    return 0;
}
