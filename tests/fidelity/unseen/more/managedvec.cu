// Unified memory of float4 particles moved by a kernel; bit intrinsics on the side, one of
// them reading a read-only array through __ldg.
#include <cstdio>
#include <cuda_runtime.h>

struct Stats { unsigned ffs, clz, brev, popc; };

__global__ void step(float4 *p, const unsigned *seed, int n, float dt, Stats *st)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    float4 q = p[i];
    float2 v = make_float2(q.z, q.w);
    q.x += v.x * dt;
    q.y += v.y * dt;
    q.w -= 9.81f * dt;
    p[i] = q;
    unsigned bits = __float_as_uint(q.x) ^ (unsigned)i;
    st[i].ffs = __ffs(bits);
    st[i].clz = __clz(bits);
    st[i].brev = __brev(bits);
    st[i].popc = __popc(__ldg(&seed[i]) ^ __float_as_uint(q.y));
}

int main(void)
{
    const int n = 96;
    float4 *p;
    Stats *st;
    unsigned *seed;
    cudaMallocManaged(&p, n * sizeof(float4));
    cudaMallocManaged(&st, n * sizeof(Stats));
    cudaMallocManaged(&seed, n * sizeof(unsigned));
    for (int i = 0; i < n; i++) seed[i] = 2654435761u * i;
    for (int i = 0; i < n; i++) p[i] = make_float4(i, 2.0f * i, 1.0f + i % 4, 0.5f * i);
    for (int s = 0; s < 3; s++) {
        step<<<(n + 31) / 32, 32>>>(p, seed, n, 0.01f, st);
        cudaDeviceSynchronize();
    }
    for (int i = 0; i < n; i += 19)
        printf("p[%d] = (%.6f, %.6f, %.6f, %.6f) ffs %u clz %u brev %08x popc %u\n", i, p[i].x, p[i].y, p[i].z,
               p[i].w, st[i].ffs, st[i].clz, st[i].brev, st[i].popc);
    printf("align float4 %zu float2 %zu\n", alignof(float4), alignof(float2));
    cudaFree(p);
    cudaFree(st);
    cudaFree(seed);
    return 0;
}
