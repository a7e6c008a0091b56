// A file saved with a UTF-8 byte-order mark, including a #pragma once header twice, with
// inlining qualifiers and attributes on device and host functions.
#include <stdio.h>
#include "mathops.h"
#include "mathops.h"

__global__ void __launch_bounds__(128) apply(const int *in, int *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = cube_plus(in[i]) - keep_call(in[i]);
}

static inline __attribute__((always_inline)) int host_cube_plus(int x) { return x * x * x + 1; }

int main(void)
{
    const int n = 500;
    int h[n], r[n];
    for (int i = 0; i < n; i++) h[i] = i % 31 - 15;
    int *d_in, *d_out;
    cudaMalloc(&d_in, sizeof(h));
    cudaMalloc(&d_out, sizeof(r));
    cudaMemcpy(d_in, h, sizeof(h), cudaMemcpyHostToDevice);
    apply<<<(n + 127) / 128, 128>>>(d_in, d_out, n);
    cudaMemcpy(r, d_out, sizeof(r), cudaMemcpyDeviceToHost);
    long s = 0;
    int bad = 0;
    for (int i = 0; i < n; i++) {
        s += r[i];
        bad += r[i] != host_cube_plus(h[i]) - 2 * h[i];
    }
    printf("included twice, defined once: MATHOPS_VERSION %d\n", MATHOPS_VERSION);
    printf("sum %ld, mismatches %d, r[0] = %d\n", s, bad, r[0]);
    cudaFree(d_in);
    cudaFree(d_out);
    return 0;
}
