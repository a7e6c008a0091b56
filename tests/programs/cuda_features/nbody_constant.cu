// A small n-body step in the style of a CUDA course: the bodies (x, y, z, mass) sit in
// constant memory as float4 (each read is one LDC.128), every thread accumulates the
// acceleration on its body in a float3 (kept in registers: no local memory at -O3) and a
// __device__ function returns each pair's contribution as a float3.
#include <cstdio>

#define BODIES 16
#define SOFTENING 0.01f

__constant__ float4 c_bodies[BODIES];

__device__ float3 pull(float4 self, float4 other) {
    float3 d = make_float3(other.x - self.x, other.y - self.y, other.z - self.z);
    float dist2 = d.x * d.x + d.y * d.y + d.z * d.z + SOFTENING;
    float dist = sqrtf(dist2);
    float s = other.w / (dist2 * dist);
    return make_float3(d.x * s, d.y * s, d.z * s);
}

__global__ void accelerations(float3 *acc_out, float *speed_out, float dt) {
    int i = threadIdx.x;
    float4 self = c_bodies[i];
    float3 acc = make_float3(0.0f, 0.0f, 0.0f);
    for (int j = 0; j < BODIES; j++) {
        float3 a = pull(self, c_bodies[j]);
        acc.x += a.x;
        acc.y += a.y;
        acc.z += a.z;
    }
    acc_out[i] = acc;
    float3 v = make_float3(acc.x * dt, acc.y * dt, acc.z * dt);
    speed_out[i] = sqrtf(v.x * v.x + v.y * v.y + v.z * v.z);
}

int main() {
    float4 bodies[BODIES];
    for (int i = 0; i < BODIES; i++)
        bodies[i] = make_float4((i % 4) - 1.5f, (i / 4) - 1.5f, 0.25f * (i % 3), 1.0f + 0.5f * (i % 5));
    cudaMemcpyToSymbol(c_bodies, bodies, sizeof bodies);
    float3 *d_acc;
    float *d_speed;
    cudaMalloc(&d_acc, BODIES * sizeof(float3));
    cudaMalloc(&d_speed, BODIES * sizeof(float));
    accelerations<<<1, BODIES>>>(d_acc, d_speed, 0.01f);
    float3 acc[BODIES];
    float speed[BODIES];
    cudaMemcpy(acc, d_acc, sizeof acc, cudaMemcpyDeviceToHost);
    cudaMemcpy(speed, d_speed, sizeof speed, cudaMemcpyDeviceToHost);
    for (int i = 0; i < BODIES; i++)
        printf("body %2d: a = (%+.5f, %+.5f, %+.5f) |v| after dt = %.6f\n", i, acc[i].x, acc[i].y, acc[i].z, speed[i]);
    return 0;
}
