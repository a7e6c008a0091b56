// A 2D heat-diffusion (Jacobi) stencil with ping-pong buffers, fixed hot cells and a
// few steps; values stay exact multiples of powers of two, so both sides agree exactly.
#include <cstdio>
#include <cstring>
#include <utility>

#define W 32
#define H 32

__global__ void jacobi(const float *in, float *out)
{
    int x = blockIdx.x * blockDim.x + threadIdx.x;
    int y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x >= W || y >= H) return;
    int i = y * W + x;
    if (x == 0 || y == 0 || x == W - 1 || y == H - 1) {
        out[i] = in[i];
        return;
    }
    float v = 0.25f * (in[i - 1] + in[i + 1] + in[i - W] + in[i + W]);
    if (x == W / 2 && y == H / 2) v = 256.0f;
    out[i] = v;
}

void jacobiHost(const float *in, float *out)
{
    for (int y = 0; y < H; y++)
        for (int x = 0; x < W; x++) {
            int i = y * W + x;
            if (x == 0 || y == 0 || x == W - 1 || y == H - 1) {
                out[i] = in[i];
                continue;
            }
            float v = 0.25f * (in[i - 1] + in[i + 1] + in[i - W] + in[i + W]);
            if (x == W / 2 && y == H / 2) v = 256.0f;
            out[i] = v;
        }
}

int main()
{
    static float a[W * H], b[W * H], ha[W * H], hb[W * H];
    for (int i = 0; i < W * H; i++) a[i] = 0.0f;
    for (int x = 0; x < W; x++) a[x] = 64.0f;   // hot top edge
    a[(H / 2) * W + W / 2] = 256.0f;
    memcpy(ha, a, sizeof(a));
    float *d_a, *d_b;
    cudaMalloc(&d_a, sizeof(a));
    cudaMalloc(&d_b, sizeof(b));
    cudaMemcpy(d_a, a, sizeof(a), cudaMemcpyHostToDevice);
    dim3 block(16, 8), grid(W / 16, H / 8);
    const int steps = 6;
    float *hin = ha, *hout = hb;
    for (int s = 0; s < steps; s++) {
        jacobi<<<grid, block>>>(d_a, d_b);
        std::swap(d_a, d_b);
        jacobiHost(hin, hout);
        std::swap(hin, hout);
    }
    cudaMemcpy(b, d_a, sizeof(b), cudaMemcpyDeviceToHost);
    int diff = 0;
    double total = 0;
    for (int i = 0; i < W * H; i++) {
        diff += b[i] != hin[i];
        total += b[i];
    }
    printf("after %d steps: centre %.6f, next to it %.6f, below the top %.6f\n", steps, b[(H / 2) * W + W / 2],
           b[(H / 2) * W + W / 2 + 1], b[W + 5]);
    printf("total heat %.6f, cells differing from the host: %d\n", total, diff);
    cudaFree(d_a);
    cudaFree(d_b);
    return 0;
}
