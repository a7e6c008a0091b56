// Aggregates that live in registers: a float3 accumulator, a small struct of particle
// state and a vector passed to (and returned from) an inlined __device__ function.
// Nothing takes their address, so nvcc -O3 keeps every field in a register: no local
// memory (0 bytes stack frame, no LDL/STL).
#include <cstdio>

struct State {
    float x, v;
    int bounces;
};

__device__ float3 scaled_add(float3 a, float3 b, float s) {
    return make_float3(a.x + s * b.x, a.y + s * b.y, a.z + s * b.z);
}

__global__ void sum3(const float *xyz, float *out, int n) {
    float3 acc = make_float3(0.0f, 0.0f, 0.0f);
    for (int j = threadIdx.x; j < n; j += blockDim.x) {
        acc.x += xyz[3 * j];
        acc.y += xyz[3 * j + 1];
        acc.z += xyz[3 * j + 2];
    }
    float3 shifted = scaled_add(acc, make_float3(1.0f, 2.0f, 3.0f), 0.5f);
    out[3 * threadIdx.x] = shifted.x;
    out[3 * threadIdx.x + 1] = shifted.y;
    out[3 * threadIdx.x + 2] = shifted.z;
}

__global__ void bounce(float *x_out, int *count_out, int steps) {
    State s;
    s.x = 1.0f + threadIdx.x;
    s.v = -0.75f;
    s.bounces = 0;
    for (int t = 0; t < steps; t++) {
        s.v -= 0.25f;
        s.x += s.v;
        if (s.x < 0.0f) {
            s.x = -s.x;
            s.v = -s.v * 0.5f;
            s.bounces++;
        }
    }
    x_out[threadIdx.x] = s.x;
    count_out[threadIdx.x] = s.bounces;
}

int main() {
    const int n = 40, threads = 4;
    float h[3 * n];
    for (int j = 0; j < 3 * n; j++)
        h[j] = 0.25f * (j % 7) - 0.5f * (j % 3);
    float *d_xyz, *d_out;
    cudaMalloc(&d_xyz, sizeof h);
    cudaMalloc(&d_out, 3 * threads * sizeof(float));
    cudaMemcpy(d_xyz, h, sizeof h, cudaMemcpyHostToDevice);
    sum3<<<1, threads>>>(d_xyz, d_out, n);
    float sums[3 * threads];
    cudaMemcpy(sums, d_out, sizeof sums, cudaMemcpyDeviceToHost);
    for (int t = 0; t < threads; t++)
        printf("thread %d: (%g, %g, %g)\n", t, sums[3 * t], sums[3 * t + 1], sums[3 * t + 2]);
    float *d_x;
    int *d_count;
    cudaMalloc(&d_x, 8 * sizeof(float));
    cudaMalloc(&d_count, 8 * sizeof(int));
    bounce<<<1, 8>>>(d_x, d_count, 20);
    float x[8];
    int count[8];
    cudaMemcpy(x, d_x, sizeof x, cudaMemcpyDeviceToHost);
    cudaMemcpy(count, d_count, sizeof count, cudaMemcpyDeviceToHost);
    for (int t = 0; t < 8; t++)
        printf("particle %d: x = %g after %d bounces\n", t, x[t], count[t]);
    cudaFree(d_xyz);
    cudaFree(d_out);
    cudaFree(d_x);
    cudaFree(d_count);
    return 0;
}
