// Vector elements of __constant__ arrays: each float4 / int4 element is one 128-bit
// constant load (LDC.128) and each float2 one 64-bit load (LDC.64), as nvcc emits for a
// lane-varying index; uniform indices read the same tables.
#include <cstdio>

__constant__ float4 c_weights[8];
__constant__ float2 c_offsets[8];
__constant__ int4 c_lookup[4];

__global__ void blend(float *out, int stride) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    float4 w = c_weights[(i * stride) & 7];
    float2 o = c_offsets[(i + 3) & 7];
    int4 q = c_lookup[i & 3];
    float4 u = c_weights[blockIdx.x];
    out[i] = w.x * o.x + w.y * o.y + w.z - w.w + (float)(q.x + q.y * q.z - q.w) + u.y;
}

int main() {
    float4 weights[8];
    float2 offsets[8];
    int4 lookup[4];
    for (int k = 0; k < 8; k++) {
        weights[k] = make_float4(0.5f * k, 1.0f - 0.125f * k, 2.0f + k, 0.25f * k * k);
        offsets[k] = make_float2(k - 3.5f, 0.75f * k);
    }
    for (int k = 0; k < 4; k++)
        lookup[k] = make_int4(k, 2 * k + 1, 3 - k, k * k);
    cudaMemcpyToSymbol(c_weights, weights, sizeof weights);
    cudaMemcpyToSymbol(c_offsets, offsets, sizeof offsets);
    cudaMemcpyToSymbol(c_lookup, lookup, sizeof lookup);
    const int n = 64;
    float *d, h[n];
    cudaMalloc(&d, n * sizeof(float));
    blend<<<2, n / 2>>>(d, 3);
    cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost);
    for (int i = 0; i < n; i++)
        printf("%g%c", h[i], i % 8 == 7 ? '\n' : ' ');
    cudaFree(d);
    return 0;
}
