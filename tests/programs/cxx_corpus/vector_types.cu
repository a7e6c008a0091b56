// CUDA's built-in vector types: float4 and int2 built with make_*, uchar4 pixels
// converted to grey, float2 used as a complex number, all through kernels.
#include <cstdio>

__global__ void toGrey(const uchar4 *rgba, unsigned char *grey, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    uchar4 p = rgba[i];
    grey[i] = (unsigned char)((p.x * 2 + p.y * 5 + p.z * 1) / 8);
}

__global__ void lengths(const float4 *v, float *len2, int2 *idx, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    float4 a = v[i];
    len2[i] = a.x * a.x + a.y * a.y + a.z * a.z + a.w * a.w;
    idx[i] = make_int2(i / 8, i % 8);
}

__global__ void cmul(const float2 *a, const float2 *b, float2 *c, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) c[i] = make_float2(a[i].x * b[i].x - a[i].y * b[i].y, a[i].x * b[i].y + a[i].y * b[i].x);
}

int main()
{
    const int n = 256;
    uchar4 px[n];
    float4 v[n];
    float2 a[n], b[n];
    for (int i = 0; i < n; i++) {
        px[i] = make_uchar4(i, 255 - i, (i * 3) & 255, 255);
        v[i] = make_float4((float)(i % 5), (float)(i % 3), 1.0f, (float)(i % 2));
        a[i] = make_float2((float)(i % 7) - 3.0f, 1.0f);
        b[i] = make_float2(2.0f, (float)(i % 4));
    }
    uchar4 *d_px;
    unsigned char *d_grey;
    float4 *d_v;
    float *d_len;
    int2 *d_idx;
    float2 *d_a, *d_b, *d_c;
    cudaMalloc(&d_px, sizeof(px));
    cudaMalloc(&d_grey, n);
    cudaMalloc(&d_v, sizeof(v));
    cudaMalloc(&d_len, n * sizeof(float));
    cudaMalloc(&d_idx, n * sizeof(int2));
    cudaMalloc(&d_a, sizeof(a));
    cudaMalloc(&d_b, sizeof(b));
    cudaMalloc(&d_c, sizeof(a));
    cudaMemcpy(d_px, px, sizeof(px), cudaMemcpyHostToDevice);
    cudaMemcpy(d_v, v, sizeof(v), cudaMemcpyHostToDevice);
    cudaMemcpy(d_a, a, sizeof(a), cudaMemcpyHostToDevice);
    cudaMemcpy(d_b, b, sizeof(b), cudaMemcpyHostToDevice);
    toGrey<<<n / 64, 64>>>(d_px, d_grey, n);
    lengths<<<n / 64, 64>>>(d_v, d_len, d_idx, n);
    cmul<<<n / 64, 64>>>(d_a, d_b, d_c, n);
    unsigned char grey[n];
    float len[n];
    int2 idx[n];
    float2 c[n];
    cudaMemcpy(grey, d_grey, n, cudaMemcpyDeviceToHost);
    cudaMemcpy(len, d_len, sizeof(len), cudaMemcpyDeviceToHost);
    cudaMemcpy(idx, d_idx, sizeof(idx), cudaMemcpyDeviceToHost);
    cudaMemcpy(c, d_c, sizeof(c), cudaMemcpyDeviceToHost);
    unsigned gs = 0;
    float ls = 0, cs = 0;
    for (int i = 0; i < n; i++) {
        gs += grey[i];
        ls += len[i];
        cs += c[i].x - c[i].y;
    }
    printf("grey: %u %u %u sum %u\n", grey[0], grey[100], grey[255], gs);
    printf("len2 sum %.1f, idx[77] = (%d, %d)\n", ls, idx[77].x, idx[77].y);
    printf("c[5] = (%.1f, %.1f), sum(re - im) = %.1f\n", c[5].x, c[5].y, cs);
    printf("sizeof: uchar4 %d float4 %d int2 %d float2 %d\n", (int)sizeof(uchar4), (int)sizeof(float4),
           (int)sizeof(int2), (int)sizeof(float2));
    cudaFree(d_px);
    cudaFree(d_grey);
    cudaFree(d_v);
    cudaFree(d_len);
    cudaFree(d_idx);
    cudaFree(d_a);
    cudaFree(d_b);
    cudaFree(d_c);
    return 0;
}
