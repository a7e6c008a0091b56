// minicuda-run: -use_fast_math
// Damped springs with -use_fast_math (which implies -ftz=true): each thread keeps a
// spring's state in a struct (registers, no local memory), integrates it with a
// constant-memory float2 of (stiffness, damping) per spring, and reports when the
// position first becomes exactly zero: with -ftz=true a decaying value jumps from the
// smallest normal float to zero instead of creeping through the subnormals.
#include <cstdio>

struct Spring {
    float x, v;
    int settled_at;
};

__constant__ float2 c_params[8];

__device__ Spring step(Spring s, float2 p, int t) {
    float a = -p.x * s.x - p.y * s.v;
    s.v += 0.5f * a;
    s.x += 0.5f * s.v;
    if (s.x == 0.0f && s.settled_at < 0)
        s.settled_at = t;
    return s;
}

__global__ void simulate(float *x_out, int *settled_out, int steps) {
    int i = threadIdx.x;
    Spring s;
    s.x = 1.0f;
    s.v = 0.0f;
    s.settled_at = -1;
    float2 p = c_params[i];
    for (int t = 0; t < steps; t++)
        s = step(s, p, t);
    x_out[i] = s.x;
    settled_out[i] = s.settled_at;
}

int main() {
    float2 params[8];
    for (int i = 0; i < 8; i++)
        params[i] = make_float2(0.25f + 0.125f * i, 1.0f);
    cudaMemcpyToSymbol(c_params, params, sizeof params);
    float *d_x;
    int *d_settled;
    cudaMalloc(&d_x, 8 * sizeof(float));
    cudaMalloc(&d_settled, 8 * sizeof(int));
    simulate<<<1, 8>>>(d_x, d_settled, 600);
    float x[8];
    int settled[8];
    cudaMemcpy(x, d_x, sizeof x, cudaMemcpyDeviceToHost);
    cudaMemcpy(settled, d_settled, sizeof settled, cudaMemcpyDeviceToHost);
    for (int i = 0; i < 8; i++)
        printf("spring %d (k = %.3f): x = %a, exactly zero from step %d\n", i, params[i].x, x[i], settled[i]);
    return 0;
}
