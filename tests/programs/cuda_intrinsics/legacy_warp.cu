// minicuda-run: --arch sm_60
// The warp intrinsics without a mask, as sm_60 code (a course's chapter 5) writes them:
// nvcc accepts them below sm_70 with a deprecation warning.  One warp of 32 threads,
// thread t holding t + 1.  By hand: the __shfl_down reduction gives 1 + .. + 32 = 528 in
// lane 0; __shfl(v, 5) broadcasts lane 5's 6; the __shfl_up inclusive scan gives lane t
// (t + 1)(t + 2) / 2 (lane 31: 528); __shfl_xor's butterfly leaves 528 in every lane;
// __ballot(v % 2 == 0) sets the odd lanes: 0xaaaaaaaa; __any(v == 32) 1, __all(v > 0) 1,
// __all(v < 32) 0; __shfl_down of a float by 16 with width 16 stays in each half: lane 0
// reads its own 1.5.
#include <cstdio>

__global__ void warp(int *out, float *f) {
    int t = threadIdx.x, v = t + 1;
    int sum = v;
    for (int offset = 16; offset > 0; offset /= 2) sum += __shfl_down(sum, offset);
    int scan = v;
    for (int d = 1; d < 32; d *= 2) {
        int up = __shfl_up(scan, d);
        if (t >= d) scan += up;
    }
    int all = v;
    for (int mask = 16; mask > 0; mask /= 2) all += __shfl_xor(all, mask);
    out[t] = scan;
    unsigned odd_lanes = __ballot(v % 2 == 0);   // all 32 lanes vote (inside `if (t == 0)` only lane 0 would)
    if (t == 0) {
        out[32] = sum;
        out[37] = odd_lanes;
    }
    out[33] = __shfl(v, 5);
    out[34] = __any(v == 32);
    int every = __all(v > 0), some = __all(v < 32);
    if (t == 31) { out[35] = every; out[36] = some; out[38] = all; }
    float g = __shfl_down(t * 0.5f + 1.5f, 16, 16);
    if (t == 0) f[0] = g;
}

int main() {
    int *d_out; float *d_f;
    cudaMalloc(&d_out, 39 * sizeof(int));
    cudaMalloc(&d_f, sizeof(float));
    warp<<<1, 32>>>(d_out, d_f);
    int h[39]; float g;
    cudaMemcpy(h, d_out, sizeof h, cudaMemcpyDeviceToHost);
    cudaMemcpy(&g, d_f, sizeof g, cudaMemcpyDeviceToHost);
    printf("sum %d broadcast %d any %d all %d %d ballot %08x butterfly %d half %g\n", h[32], h[33], h[34], h[35],
           h[36], (unsigned)h[37], h[38], g);
    printf("scan %d %d %d %d\n", h[0], h[1], h[2], h[31]);
    return 0;
}
