// CUDA's vector types: make_* on host and device, member access, by-value kernel
// parameters, arrays in global memory, and the alignment CUDA gives them; a user's
// struct with __align__(16) / __attribute__((aligned(8))) / alignas(32).
// Kernel `scale` (worked out by hand): out[i] = (v[i].x * s.x, v[i].y * s.y, v[i].z + s.z,
// v[i].w + s.w) with v[i] = (i, 2i, 3i, 4i) and s = (2, 0.5, 1, -1): out[3] = (6, 3, 10, 11).
// Kernel `pack`: c[i] = make_char2(i, -i), u[i] = make_ushort3(i, 2i, 65535), d[i] =
// make_double2(i / 2.0, -i), l[i] = make_longlong2(i << 40, -i): for i = 5,
// (5, -5), (5, 10, 65535), (2.5, -5), (5497558138880, -5).
#include <cstdio>

struct __align__(16) Particle { float x, y, z; int id; };
struct __attribute__((aligned(8))) Tag { char c; };
struct alignas(32) Wide { float f; };
struct Mixed { char c; double4 v; short3 s; };

__global__ void scale(const float4 *v, float4 s, float4 *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    float4 a = v[i];
    out[i] = make_float4(a.x * s.x, a.y * s.y, a.z + s.z, a.w + s.w);
}

__global__ void pack(char2 *c, ushort3 *u, double2 *d, longlong2 *l, int n)
{
    int i = threadIdx.x;
    if (i >= n) return;
    c[i] = make_char2(i, -i);
    u[i] = make_ushort3(i, 2 * i, 65535);
    d[i] = make_double2(i / 2.0, -i);
    l[i] = make_longlong2((long long)i << 40, -i);
}

__global__ void particles(Particle *p, int n)
{
    int i = threadIdx.x;
    if (i < n) {
        Particle q = p[i];
        q.x += 1.0f;
        q.id *= 10;
        p[i] = q;
    }
}

int main()
{
    printf("sizeof/alignof: int2 %d/%d int4 %d/%d float2 %d/%d float3 %d/%d double2 %d/%d\n",
           (int)sizeof(int2), (int)alignof(int2), (int)sizeof(int4), (int)alignof(int4), (int)sizeof(float2),
           (int)alignof(float2), (int)sizeof(float3), (int)alignof(float3), (int)sizeof(double2), (int)alignof(double2));
    printf("char2 %d/%d char3 %d/%d short4 %d/%d uchar4 %d/%d long2 %d/%d double4 %d/%d\n",
           (int)sizeof(char2), (int)alignof(char2), (int)sizeof(char3), (int)alignof(char3), (int)sizeof(short4),
           (int)alignof(short4), (int)sizeof(uchar4), (int)alignof(uchar4), (int)sizeof(long2), (int)alignof(long2),
           (int)sizeof(double4), (int)alignof(double4));
    printf("Particle %d/%d Tag %d/%d Wide %d/%d Mixed %d/%d\n", (int)sizeof(Particle), (int)alignof(Particle),
           (int)sizeof(Tag), (int)alignof(Tag), (int)sizeof(Wide), (int)alignof(Wide), (int)sizeof(Mixed),
           (int)alignof(Mixed));

    const int n = 8;
    float4 v[n], out[n];
    for (int i = 0; i < n; i++) v[i] = make_float4(i, 2 * i, 3 * i, 4 * i);
    float4 *dv, *dout;
    cudaMalloc(&dv, sizeof(v));
    cudaMalloc(&dout, sizeof(out));
    cudaMemcpy(dv, v, sizeof(v), cudaMemcpyHostToDevice);
    scale<<<2, 4>>>(dv, make_float4(2.0f, 0.5f, 1.0f, -1.0f), dout, n);
    cudaMemcpy(out, dout, sizeof(out), cudaMemcpyDeviceToHost);
    printf("out[3] = (%.1f, %.1f, %.1f, %.1f)\n", out[3].x, out[3].y, out[3].z, out[3].w);

    char2 *dc;
    ushort3 *du;
    double2 *dd;
    longlong2 *dl;
    cudaMalloc(&dc, n * sizeof(char2));
    cudaMalloc(&du, n * sizeof(ushort3));
    cudaMalloc(&dd, n * sizeof(double2));
    cudaMalloc(&dl, n * sizeof(longlong2));
    pack<<<1, n>>>(dc, du, dd, dl, n);
    char2 c[n];
    ushort3 u[n];
    double2 d[n];
    longlong2 l[n];
    cudaMemcpy(c, dc, sizeof(c), cudaMemcpyDeviceToHost);
    cudaMemcpy(u, du, sizeof(u), cudaMemcpyDeviceToHost);
    cudaMemcpy(d, dd, sizeof(d), cudaMemcpyDeviceToHost);
    cudaMemcpy(l, dl, sizeof(l), cudaMemcpyDeviceToHost);
    printf("(%d, %d) (%u, %u, %u) (%.1f, %.1f) (%lld, %lld)\n", c[5].x, c[5].y, u[5].x, u[5].y, u[5].z, d[5].x, d[5].y,
           l[5].x, l[5].y);

    Particle p[3];
    for (int i = 0; i < 3; i++) {
        p[i].x = i;
        p[i].y = p[i].z = 0.0f;
        p[i].id = i + 1;
    }
    Particle *dp;
    cudaMalloc(&dp, sizeof(p));
    cudaMemcpy(dp, p, sizeof(p), cudaMemcpyHostToDevice);
    particles<<<1, 3>>>(dp, 3);
    cudaMemcpy(p, dp, sizeof(p), cudaMemcpyDeviceToHost);
    printf("p[2] = %.1f id %d, &p[1] - &p[0] = %d bytes\n", p[2].x, p[2].id, (int)((char *)&p[1] - (char *)&p[0]));
    uint2 w = make_uint2(7u, 8u);
    int3 t = make_int3(1, 2, 3);
    printf("%u %u %d\n", w.x + w.y, sizeof(w) == 8 ? 1u : 0u, t.x + t.y + t.z);
    return 0;
}
