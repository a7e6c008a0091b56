// Vector loads and stores (LDG.128/STG.128, LDS.64/STS.64, LDG.128.CONSTANT): float4, int4,
// double2, float2, int2 and a 16-byte aligned struct, copied through global and shared memory
// and __ldg.  Every value is a small integer or half of one, so the results are exact; by hand,
// line i (0..7) prints: 2*(4i, 4i+1, 4i+2, 4i+3) | (i+30, i+20, i+10, i) | i + 0.5i |
// float2 (i+1, -(i+1)) from the next slot, (0, 0) for i = 7 | int2 ((i-1)^2, i+99) from the slot
// before, (49, 107) for i = 0 | particle (i+1, 2i, 3i, 10i); then "no error".
#include <cstdio>

struct __align__(16) Particle {
    float x, y, z;
    int id;
};

__global__ void scale4(const float4 *in, float4 *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        float4 v = in[i];
        out[i] = make_float4(2.0f * v.x, 2.0f * v.y, 2.0f * v.z, 2.0f * v.w);
    }
}

__global__ void reverse4(const int4 *in, int4 *out)
{
    int4 v = __ldg(&in[threadIdx.x]);
    out[threadIdx.x] = make_int4(v.w, v.z, v.y, v.x);
}

__global__ void sum2(const double2 *in, double *out)
{
    double2 v = in[threadIdx.x];
    out[threadIdx.x] = v.x + v.y;
}

__global__ void rotate2(const float2 *in, const int2 *idx, float2 *out, int2 *idx_out)
{
    __shared__ float2 s[8];
    __shared__ int2 t[8];
    s[threadIdx.x] = in[threadIdx.x];
    t[threadIdx.x] = idx[threadIdx.x];
    __syncthreads();
    out[threadIdx.x] = s[(threadIdx.x + 1) % 8];
    idx_out[threadIdx.x] = t[(threadIdx.x + 7) % 8];
}

__global__ void move(const Particle *in, Particle *out)
{
    Particle p = in[threadIdx.x];
    p.x += 1.0f;
    p.id *= 10;
    out[threadIdx.x] = p;
}

int main()
{
    const int n = 8;
    float4 h4[n], r4[n];
    int4 hi[n], ri[n];
    double2 hd[n];
    double rd[n];
    float2 hf[n], rf[n];
    int2 hj[n], rj[n];
    Particle hp[n], rp[n];
    for (int i = 0; i < n; i++) {
        h4[i] = make_float4(4 * i, 4 * i + 1, 4 * i + 2, 4 * i + 3);
        hi[i] = make_int4(i, i + 10, i + 20, i + 30);
        hd[i] = make_double2(i, 0.5 * i);
        hf[i] = make_float2(i, -i);
        hj[i] = make_int2(i * i, i + 100);
        hp[i].x = i; hp[i].y = 2 * i; hp[i].z = 3 * i; hp[i].id = i;
    }
    float4 *d4, *o4; int4 *di, *oi; double2 *dd; double *od; float2 *df, *of; int2 *dj, *oj;
    Particle *dp, *op;
    cudaMalloc(&d4, sizeof h4); cudaMalloc(&o4, sizeof h4);
    cudaMalloc(&di, sizeof hi); cudaMalloc(&oi, sizeof hi);
    cudaMalloc(&dd, sizeof hd); cudaMalloc(&od, sizeof rd);
    cudaMalloc(&df, sizeof hf); cudaMalloc(&of, sizeof hf);
    cudaMalloc(&dj, sizeof hj); cudaMalloc(&oj, sizeof hj);
    cudaMalloc(&dp, sizeof hp); cudaMalloc(&op, sizeof hp);
    cudaMemcpy(d4, h4, sizeof h4, cudaMemcpyHostToDevice);
    cudaMemcpy(di, hi, sizeof hi, cudaMemcpyHostToDevice);
    cudaMemcpy(dd, hd, sizeof hd, cudaMemcpyHostToDevice);
    cudaMemcpy(df, hf, sizeof hf, cudaMemcpyHostToDevice);
    cudaMemcpy(dj, hj, sizeof hj, cudaMemcpyHostToDevice);
    cudaMemcpy(dp, hp, sizeof hp, cudaMemcpyHostToDevice);
    scale4<<<2, 4>>>(d4, o4, n);
    reverse4<<<1, n>>>(di, oi);
    sum2<<<1, n>>>(dd, od);
    rotate2<<<1, n>>>(df, dj, of, oj);
    move<<<1, n>>>(dp, op);
    cudaMemcpy(r4, o4, sizeof r4, cudaMemcpyDeviceToHost);
    cudaMemcpy(ri, oi, sizeof ri, cudaMemcpyDeviceToHost);
    cudaMemcpy(rd, od, sizeof rd, cudaMemcpyDeviceToHost);
    cudaMemcpy(rf, of, sizeof rf, cudaMemcpyDeviceToHost);
    cudaMemcpy(rj, oj, sizeof rj, cudaMemcpyDeviceToHost);
    cudaMemcpy(rp, op, sizeof rp, cudaMemcpyDeviceToHost);
    printf("sizes %d %d %d %d\n", (int)sizeof(float4), (int)sizeof(double2), (int)sizeof(float2), (int)sizeof(Particle));
    for (int i = 0; i < n; i++)
        printf("%d: %g %g %g %g | %d %d %d %d | %g | %g %g | %d %d | %g %g %g %d\n", i,
               r4[i].x, r4[i].y, r4[i].z, r4[i].w, ri[i].x, ri[i].y, ri[i].z, ri[i].w, rd[i],
               rf[i].x, rf[i].y, rj[i].x, rj[i].y, rp[i].x, rp[i].y, rp[i].z, rp[i].id);
    printf("%s\n", cudaGetErrorString(cudaGetLastError()));
    return 0;
}
