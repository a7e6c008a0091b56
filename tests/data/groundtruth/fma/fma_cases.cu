// Which float/double multiply-add pairs ptxas contracts into FFMA/DFMA (sm_90).
// Each kernel writes bit patterns; the host prints them, so a fused and an
// unfused result differ visibly in the last bits.
#include <cstdio>

#define N 8

__global__ void k_mad(const float *a, const float *b, const float *c, unsigned *o) {
    int i = threadIdx.x;
    o[i] = __float_as_uint(a[i] * b[i] + c[i]);
}
__global__ void k_msub(const float *a, const float *b, const float *c, unsigned *o) {
    int i = threadIdx.x;
    o[i] = __float_as_uint(a[i] * b[i] - c[i]);
}
__global__ void k_rsub(const float *a, const float *b, const float *c, unsigned *o) {
    int i = threadIdx.x;
    o[i] = __float_as_uint(c[i] - a[i] * b[i]);
}
__global__ void k_negprod(const float *a, const float *b, const float *c, unsigned *o) {
    int i = threadIdx.x;
    o[i] = __float_as_uint(-(a[i] * b[i]) + c[i]);
}
__global__ void k_negboth(const float *a, const float *b, const float *c, unsigned *o) {
    int i = threadIdx.x;
    o[i] = __float_as_uint(-(a[i] * b[i]) - c[i]);
}
__global__ void k_addfirst(const float *a, const float *b, const float *c, unsigned *o) {
    int i = threadIdx.x;
    o[i] = __float_as_uint(c[i] + a[i] * b[i]);
}
__global__ void k_twoprod(const float *a, const float *b, const float *c, unsigned *o) {
    int i = threadIdx.x;
    o[i] = __float_as_uint(a[i] * b[i] + c[i] * a[i]);
}
__global__ void k_twouse(const float *a, const float *b, const float *c, unsigned *o) {
    int i = threadIdx.x;
    float t = a[i] * b[i];
    float x = t + c[i];
    float y = t - b[i];
    o[2 * i] = __float_as_uint(x);
    o[2 * i + 1] = __float_as_uint(y);
}
__global__ void k_keepprod(const float *a, const float *b, const float *c, unsigned *o) {
    int i = threadIdx.x;
    float t = a[i] * b[i];
    o[2 * i] = __float_as_uint(t + c[i]);
    o[2 * i + 1] = __float_as_uint(t);
}
__global__ void k_const(const float *a, const float *b, const float *c, unsigned *o) {
    int i = threadIdx.x;
    o[i] = __float_as_uint(a[i] * 0.1f + c[i]);
}
__global__ void k_branch(const float *a, const float *b, const float *c, unsigned *o) {
    int i = threadIdx.x;
    float t = a[i] * b[i];
    float r;
    if (c[i] > 0.5f) r = t + c[i]; else r = t - a[i];
    o[i] = __float_as_uint(r);
}
__global__ void k_bigbranch(const float *a, const float *b, const float *c, unsigned *o) {
    int i = threadIdx.x;
    float t = a[i] * b[i];
    float r = c[i];
    if (c[i] > 0.5f) {
        for (int k = 0; k < i; k++) r = r * 0.5f + 1.0f / r;
        o[N + i] = __float_as_uint(r);
    }
    o[i] = __float_as_uint(t + r);
}
__global__ void k_loop(const float *a, const float *b, const float *c, unsigned *o) {
    int i = threadIdx.x;
    float acc = c[i];
    for (int j = 0; j < N; j++) acc += a[(i + j) % N] * b[j];
    o[i] = __float_as_uint(acc);
}
__global__ void k_loopn(const float *a, const float *b, int n, unsigned *o) {
    int i = threadIdx.x;
    float acc = 0.0f;
    for (int j = 0; j < n; j++) acc += a[(i + j) % N] * b[j];
    o[i] = __float_as_uint(acc);
}
__global__ void k_rn(const float *a, const float *b, const float *c, unsigned *o) {
    int i = threadIdx.x;
    o[3 * i] = __float_as_uint(__fadd_rn(__fmul_rn(a[i], b[i]), c[i]));
    o[3 * i + 1] = __float_as_uint(__fmul_rn(a[i], b[i]) + c[i]);
    o[3 * i + 2] = __float_as_uint(__fadd_rn(a[i] * b[i], c[i]));
}
__global__ void k_fsubrn(const float *a, const float *b, const float *c, unsigned *o) {
    int i = threadIdx.x;
    o[i] = __float_as_uint(__fsub_rn(a[i] * b[i], c[i]));
}
__global__ void k_dmad(const double *a, const double *b, const double *c, unsigned long long *o) {
    int i = threadIdx.x;
    o[4 * i] = __double_as_longlong(a[i] * b[i] + c[i]);
    o[4 * i + 1] = __double_as_longlong(c[i] - a[i] * b[i]);
    o[4 * i + 2] = __double_as_longlong(a[i] * b[i] - c[i]);
    o[4 * i + 3] = __double_as_longlong(__dadd_rn(__dmul_rn(a[i], b[i]), c[i]));
}
__global__ void k_dtwouse(const double *a, const double *b, const double *c, unsigned long long *o) {
    int i = threadIdx.x;
    double t = a[i] * b[i];
    o[2 * i] = __double_as_longlong(t + c[i]);
    o[2 * i + 1] = __double_as_longlong(t - b[i]);
}
__global__ void k_dloop(const double *a, const double *b, const double *c, unsigned long long *o) {
    int i = threadIdx.x;
    double acc = c[i];
    for (int j = 0; j < N; j++) acc += a[(i + j) % N] * b[j];
    o[i] = __double_as_longlong(acc);
}
__global__ void k_mixed(const float *a, const float *b, const double *c, unsigned long long *o) {
    int i = threadIdx.x;
    // float product widened before the double add: not a multiply-add of one type
    o[i] = __double_as_longlong((double)(a[i] * b[i]) + c[i]);
}
__global__ void k_denorm(const float *a, const float *b, const float *c, unsigned *o) {
    int i = threadIdx.x;
    // tiny products: FTZ (fast math) flushes them
    o[i] = __float_as_uint(a[i] * 1e-38f * b[i] + c[i] * 1e-39f);
}

static void show(const char *name, unsigned *d, int n) {
    unsigned h[4 * N];
    cudaMemcpy(h, d, n * sizeof(unsigned), cudaMemcpyDeviceToHost);
    printf("%s", name);
    for (int i = 0; i < n; i++) printf(" %08x", h[i]);
    printf("\n");
}
static void showd(const char *name, unsigned long long *d, int n) {
    unsigned long long h[4 * N];
    cudaMemcpy(h, d, n * sizeof(unsigned long long), cudaMemcpyDeviceToHost);
    printf("%s", name);
    for (int i = 0; i < n; i++) printf(" %016llx", h[i]);
    printf("\n");
}

int main() {
    float ha[N], hb[N], hc[N];
    double da[N], db[N], dc[N];
    for (int i = 0; i < N; i++) {
        ha[i] = (float)(i * 7 + 3) / 13.0f;
        hb[i] = (float)(i * 5 + 11) / 7.0f;
        hc[i] = (float)(i * 3 + 1) / 9.0f;
        da[i] = (double)(i * 7 + 3) / 13.0;
        db[i] = (double)(i * 5 + 11) / 7.0;
        dc[i] = (double)(i * 3 + 1) / 9.0;
    }
    float *a, *b, *c;
    double *xa, *xb, *xc;
    unsigned *o;
    unsigned long long *od;
    cudaMalloc(&a, sizeof ha); cudaMalloc(&b, sizeof hb); cudaMalloc(&c, sizeof hc);
    cudaMalloc(&xa, sizeof da); cudaMalloc(&xb, sizeof db); cudaMalloc(&xc, sizeof dc);
    cudaMalloc(&o, 4 * N * sizeof(unsigned));
    cudaMalloc(&od, 4 * N * sizeof(unsigned long long));
    cudaMemcpy(a, ha, sizeof ha, cudaMemcpyHostToDevice);
    cudaMemcpy(b, hb, sizeof hb, cudaMemcpyHostToDevice);
    cudaMemcpy(c, hc, sizeof hc, cudaMemcpyHostToDevice);
    cudaMemcpy(xa, da, sizeof da, cudaMemcpyHostToDevice);
    cudaMemcpy(xb, db, sizeof db, cudaMemcpyHostToDevice);
    cudaMemcpy(xc, dc, sizeof dc, cudaMemcpyHostToDevice);
    cudaMemset(o, 0, 4 * N * sizeof(unsigned));
    k_mad<<<1, N>>>(a, b, c, o); show("mad", o, N);
    k_msub<<<1, N>>>(a, b, c, o); show("msub", o, N);
    k_rsub<<<1, N>>>(a, b, c, o); show("rsub", o, N);
    k_negprod<<<1, N>>>(a, b, c, o); show("negprod", o, N);
    k_negboth<<<1, N>>>(a, b, c, o); show("negboth", o, N);
    k_addfirst<<<1, N>>>(a, b, c, o); show("addfirst", o, N);
    k_twoprod<<<1, N>>>(a, b, c, o); show("twoprod", o, N);
    k_twouse<<<1, N>>>(a, b, c, o); show("twouse", o, 2 * N);
    k_keepprod<<<1, N>>>(a, b, c, o); show("keepprod", o, 2 * N);
    k_const<<<1, N>>>(a, b, c, o); show("const", o, N);
    k_branch<<<1, N>>>(a, b, c, o); show("branch", o, N);
    cudaMemset(o, 0, 4 * N * sizeof(unsigned));
    k_bigbranch<<<1, N>>>(a, b, c, o); show("bigbranch", o, 2 * N);
    k_loop<<<1, N>>>(a, b, c, o); show("loop", o, N);
    k_loopn<<<1, N>>>(a, b, N, o); show("loopn", o, N);
    k_rn<<<1, N>>>(a, b, c, o); show("rn", o, 3 * N);
    k_fsubrn<<<1, N>>>(a, b, c, o); show("fsubrn", o, N);
    k_dmad<<<1, N>>>(xa, xb, xc, od); showd("dmad", od, 4 * N);
    k_dtwouse<<<1, N>>>(xa, xb, xc, od); showd("dtwouse", od, 2 * N);
    k_dloop<<<1, N>>>(xa, xb, xc, od); showd("dloop", od, N);
    k_mixed<<<1, N>>>(a, b, xc, od); showd("mixed", od, N);
    k_denorm<<<1, N>>>(a, b, c, o); show("denorm", o, N);
    cudaError_t e = cudaDeviceSynchronize();
    printf("status %s\n", cudaGetErrorString(e));
    return 0;
}
