// Vector types in kernels: float4 loads through __ldg (one 16-byte load per thread, as
// nvcc emits LDG.E.128.CONSTANT), int2 and double2 through __ldg, and results built with
// make_float4 / make_int2 / make_double2.
// in[i] = (i, 2i, 3i, 4i); out[i] = (x + w, y * z, -x, w / 4) = (5i, 6i^2, -i, i).
#include <cstdio>
#include <cuda_runtime.h>

__global__ void mix(const float4 *__restrict__ in, float4 *__restrict__ out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        float4 v = __ldg(&in[i]);
        out[i] = make_float4(v.x + v.w, v.y * v.z, -v.x, v.w / 4.0f);
    }
}

__global__ void swapPairs(const int2 *in, int2 *out, const double2 *d, double *dsum, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        int2 p = __ldg(in + i);
        out[i] = make_int2(p.y, p.x);
        double2 q = __ldg(&d[i]);
        dsum[i] = q.x + q.y;
    }
}

int main() {
    const int n = 64;
    float4 *in, *out;
    int2 *pi, *po;
    double2 *pd;
    double *ds;
    cudaMallocManaged(&in, n * sizeof(float4));
    cudaMallocManaged(&out, n * sizeof(float4));
    cudaMallocManaged(&pi, n * sizeof(int2));
    cudaMallocManaged(&po, n * sizeof(int2));
    cudaMallocManaged(&pd, n * sizeof(double2));
    cudaMallocManaged(&ds, n * sizeof(double));
    for (int i = 0; i < n; i++) {
        in[i] = make_float4(i, 2 * i, 3 * i, 4 * i);
        pi[i] = make_int2(i, -i);
        pd[i] = make_double2(i * 0.25, 1.0);
    }
    mix<<<2, 32>>>(in, out, n);
    swapPairs<<<2, 32>>>(pi, po, pd, ds, n);
    cudaDeviceSynchronize();
    int idx[3] = {1, 10, 63};
    for (int k = 0; k < 3; k++) {
        int i = idx[k];
        printf("out[%d] = (%.1f, %.1f, %.1f, %.1f)  pair (%d, %d)  sum %.2f\n", i, out[i].x, out[i].y, out[i].z, out[i].w,
               po[i].x, po[i].y, ds[i]);
    }
    printf("aligned: %s\n", ((unsigned long long)in % 16 == 0 && (unsigned long long)pd % 16 == 0) ? "yes" : "no");
    cudaFree(in); cudaFree(out); cudaFree(pi); cudaFree(po); cudaFree(pd); cudaFree(ds);
    return 0;
}
