// Gaussian blur weights computed on the host and on the device, as a course exercise does.
#include <cstdio>
#include <cmath>
#include <vector>

#define RADIUS 4

__global__ void weights(float *w, float sigma) {
    int i = threadIdx.x - RADIUS;
    float x = (float)i;
    w[threadIdx.x] = exp(-(x * x) / (2.0f * sigma * sigma)) / (sqrt(2.0f * (float)M_PI) * sigma);
}

__global__ void blur(const float *in, float *out, const float *w, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    float acc = 0.0f;
    for (int k = -RADIUS; k <= RADIUS; k++) {
        int j = min(max(i + k, 0), n - 1);
        acc += w[k + RADIUS] * in[j];
    }
    out[i] = acc;
}

int main() {
    const int n = 1000;
    const float sigma = 1.5f;
    std::vector<float> hw(2 * RADIUS + 1), dw(2 * RADIUS + 1);
    for (int i = -RADIUS; i <= RADIUS; i++) {
        float x = (float)i;
        hw[i + RADIUS] = exp(-(x * x) / (2.0f * sigma * sigma)) / (sqrt(2.0f * (float)M_PI) * sigma);
    }
    float *d_w, *d_in, *d_out;
    cudaMalloc(&d_w, dw.size() * sizeof(float));
    weights<<<1, 2 * RADIUS + 1>>>(d_w, sigma);
    cudaMemcpy(dw.data(), d_w, dw.size() * sizeof(float), cudaMemcpyDeviceToHost);
    for (int i = 0; i <= 2 * RADIUS; i++)
        printf("w[%d] host %.9g device %.9g %s\n", i - RADIUS, hw[i], dw[i], fabs(hw[i] - dw[i]) < 1e-6f ? "ok" : "DIFF");
    std::vector<float> in(n), out(n);
    for (int i = 0; i < n; i++) in[i] = sinf(i * 0.05f) + (i % 7 == 0 ? 1.0f : 0.0f);
    cudaMalloc(&d_in, n * sizeof(float));
    cudaMalloc(&d_out, n * sizeof(float));
    cudaMemcpy(d_in, in.data(), n * sizeof(float), cudaMemcpyHostToDevice);
    blur<<<(n + 127) / 128, 128>>>(d_in, d_out, d_w, n);
    cudaMemcpy(out.data(), d_out, n * sizeof(float), cudaMemcpyDeviceToHost);
    double sum = 0;
    for (int i = 0; i < n; i++) sum += out[i];
    printf("sum %.6f out[0] %.6f out[500] %.6f out[999] %.6f\n", sum, out[0], out[500], out[999]);
    printf("sizeof(exp(x)) = %zu, pow(sigma, 2) = %.17g\n", sizeof(exp(sigma)), pow(sigma, 2));
    cudaFree(d_w); cudaFree(d_in); cudaFree(d_out);
    return 0;
}
