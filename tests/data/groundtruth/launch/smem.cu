// cudaFuncSetAttribute's edge cases, __launch_bounds__ with a bad grid, registers per block.
#include <stdio.h>
extern __shared__ float dyn[];
__global__ void kd(float *p) { dyn[threadIdx.x] = 1; if (p) p[0] = dyn[0]; }
__global__ void __launch_bounds__(64) kb(float *p) { if (p) p[0] = 1; }
void hostfn(void) {}
#define N 160
__global__ void kregs(const float *in, float *out) {
    float v[N];
#pragma unroll
    for (int i = 0; i < N; i++) v[i] = in[i * 1024 + threadIdx.x];
    float acc = 0;
#pragma unroll
    for (int j = 0; j < 8; j++)
#pragma unroll
        for (int i = 0; i < N; i++) acc = acc * v[i] + v[(i * 7 + j) % N];
    out[threadIdx.x] = acc;
}
static void report(const char *what, cudaError_t r) {
    cudaError_t last = cudaGetLastError();
    printf("%-16s ret=%s last=%s sync=%s\n", what, cudaGetErrorName(r), cudaGetErrorName(last), cudaGetErrorName(cudaDeviceSynchronize()));
}
#define L(what, ...) do { __VA_ARGS__; report(what, cudaSuccess); } while (0)
#define SET(what, f, a, v) report(what, cudaFuncSetAttribute((const void *)f, a, v))
int main() {
    float *d; cudaMalloc(&d, 1 << 24);
    SET("set 0", kd, cudaFuncAttributeMaxDynamicSharedMemorySize, 0);
    L("kd 1 after 0", kd<<<1, 32, 1>>>(d));
    L("kd 0 after 0", kd<<<1, 32, 0>>>(d));
    SET("set -1", kd, cudaFuncAttributeMaxDynamicSharedMemorySize, -1);
    SET("carve 50", kd, cudaFuncAttributePreferredSharedMemoryCarveout, 50);
    SET("carve 101", kd, cudaFuncAttributePreferredSharedMemoryCarveout, 101);
    SET("carve -1", kd, cudaFuncAttributePreferredSharedMemoryCarveout, -1);
    SET("carve -2", kd, cudaFuncAttributePreferredSharedMemoryCarveout, -2);
    SET("attr 99", kd, (cudaFuncAttribute)99, 1);
    SET("hostfn", hostfn, cudaFuncAttributeMaxDynamicSharedMemorySize, 1000);
    SET("NULL", 0, cudaFuncAttributeMaxDynamicSharedMemorySize, 1000);
    L("kb 65 grid -1", kb<<<-1, 65>>>(d));
    L("kb 2048", kb<<<1, 2048>>>(d));
    cudaFuncAttributes a; cudaFuncGetAttributes(&a, kregs);
    printf("kregs numRegs=%d maxThreadsPerBlock=%d\n", a.numRegs, a.maxThreadsPerBlock);
    for (int t = 1024; t >= 128; t /= 2) { char w[32]; snprintf(w, 32, "kregs %d", t); L(w, kregs<<<1, t>>>(d, d + (1 << 20))); }
    L("kregs 1024 grid-1", kregs<<<-1, 1024>>>(d, d));
    L("kregs 1024 dyn1M", kregs<<<1, 1024, 1 << 20>>>(d, d));
    return 0;
}
