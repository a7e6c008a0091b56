// minicuda-run: -ftz=true
// A course exercise on subnormal (denormal) floats: each thread halves its value until it
// reaches zero and counts the steps.  Built with -ftz=true the GPU flushes a subnormal
// result to zero, so 1.0f reaches zero after 127 halvings instead of 150; the kernel also
// sums tiny terms, which -ftz=true drops, and compares a subnormal with zero.
#include <cstdio>

__global__ void decay(const float *start, int *steps, float *sums, int *is_zero) {
    int i = threadIdx.x;
    float x = start[i];
    int n = 0;
    while (x != 0.0f && n < 1000) {
        x *= 0.5f;
        n++;
    }
    steps[i] = n;
    float tiny = start[i] * 1e-39f;       // subnormal for these inputs
    float sum = 0.0f;
    for (int k = 0; k < 4; k++)
        sum += tiny;
    sums[i] = sum;
    is_zero[i] = tiny == 0.0f;
}

int main() {
    const int n = 4;
    float start[n] = {1.0f, 3.0f, 0.75f, 100.0f};
    float *d_start, *d_sums;
    int *d_steps, *d_zero;
    cudaMalloc(&d_start, sizeof start);
    cudaMalloc(&d_sums, sizeof start);
    cudaMalloc(&d_steps, n * sizeof(int));
    cudaMalloc(&d_zero, n * sizeof(int));
    cudaMemcpy(d_start, start, sizeof start, cudaMemcpyHostToDevice);
    decay<<<1, n>>>(d_start, d_steps, d_sums, d_zero);
    int steps[n], zero[n];
    float sums[n];
    cudaMemcpy(steps, d_steps, sizeof steps, cudaMemcpyDeviceToHost);
    cudaMemcpy(sums, d_sums, sizeof sums, cudaMemcpyDeviceToHost);
    cudaMemcpy(zero, d_zero, sizeof zero, cudaMemcpyDeviceToHost);
    for (int i = 0; i < n; i++)
        printf("start %g: zero after %d halvings, sum of 4 tiny terms %g, tiny == 0: %s\n",
               start[i], steps[i], sums[i], zero[i] ? "yes" : "no");
    float host = 1.0f;
    int host_steps = 0;
    while (host != 0.0f) {
        host *= 0.5f;
        host_steps++;
    }
    printf("host (never flushed): zero after %d halvings\n", host_steps);
    return 0;
}
