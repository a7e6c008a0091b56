// minicuda's side of the MUFU ground truth (README.md, "Fast-math intrinsics"): reads
// mufu_in.bin (an int n, then for each function below n floats x and n floats y), runs each
// intrinsic on every (x, y) and writes mufu_out.bin (for each function, n results).
#include <stdio.h>
#include <stdlib.h>

#define FUNCTIONS 15   // sinf cosf tanf expf exp10f logf log2f log10f powf fdividef rsqrtf frcp frsqrt sincos_s sincos_c

__global__ void evaluate(int f, const float *x, const float *y, float *out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    float a = x[i], b = y[i], r = 0.0f, s, c;
    switch (f) {
    case 0: r = __sinf(a); break;
    case 1: r = __cosf(a); break;
    case 2: r = __tanf(a); break;
    case 3: r = __expf(a); break;
    case 4: r = __exp10f(a); break;
    case 5: r = __logf(a); break;
    case 6: r = __log2f(a); break;
    case 7: r = __log10f(a); break;
    case 8: r = __powf(a, b); break;
    case 9: r = __fdividef(a, b); break;
    case 10: r = rsqrtf(a); break;
    case 11: r = __frcp_rn(a); break;
    case 12: r = __frsqrt_rn(a); break;
    case 13: __sincosf(a, &s, &c); r = s; break;
    case 14: __sincosf(a, &s, &c); r = c; break;
    }
    out[i] = r;
}

int main() {
    FILE *in = fopen("mufu_in.bin", "rb");
    int n;
    if (!in || fread(&n, sizeof n, 1, in) != 1) { printf("no mufu_in.bin\n"); return 1; }
    size_t bytes = (size_t)n * sizeof(float);
    float *x = (float *)malloc(bytes), *y = (float *)malloc(bytes), *out = (float *)malloc(bytes);
    float *dx, *dy, *dout;
    cudaMalloc(&dx, bytes); cudaMalloc(&dy, bytes); cudaMalloc(&dout, bytes);
    FILE *result = fopen("mufu_out.bin", "wb");
    for (int f = 0; f < FUNCTIONS; f++) {
        if (fread(x, sizeof(float), n, in) != (size_t)n || fread(y, sizeof(float), n, in) != (size_t)n) return 1;
        cudaMemcpy(dx, x, bytes, cudaMemcpyHostToDevice);
        cudaMemcpy(dy, y, bytes, cudaMemcpyHostToDevice);
        evaluate<<<(n + 255) / 256, 256>>>(f, dx, dy, dout, n);
        cudaMemcpy(out, dout, bytes, cudaMemcpyDeviceToHost);
        fwrite(out, sizeof(float), n, result);
    }
    fclose(in); fclose(result);
    printf("%d functions, %d inputs each\n", FUNCTIONS, n);
    return 0;
}
