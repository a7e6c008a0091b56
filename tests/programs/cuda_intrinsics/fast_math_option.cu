// minicuda-run: -use_fast_math
// -use_fast_math: in device code sinf, cosf, tanf, expf, logf, log2f, log10f, powf
// (and their std:: float forms) are the fast intrinsics __sinf, ... and float x / y is
// __fdividef(x, y); host code keeps IEEE math.  Each mapped function is computed both ways
// on 320 inputs (one block of 320 threads) and the kernel counts the inputs where the two
// differ: 0 for every function, as the GPU's own code is the same instructions.  The same
// functions computed by the host (IEEE, correctly rounded or nearly) differ from the
// device's approximations on some of these inputs: "yes" for each.  On inputs where the
// approximations are exact (tests/programs/cuda_intrinsics/fast_math.cu says why) the
// mapped functions print the exact results, and the host's 1 / 3 is IEEE's.
#include <cstdio>
#include <cmath>

#define N 320
#define FUNCTIONS 13

__device__ float input(int i, float lo, float hi) { return lo + (hi - lo) * i / (N - 1); }

__global__ void both_ways(float *mapped, float *intrinsic, int *differs) {
    int i = threadIdx.x;
    float angle = input(i, -10.0f, 10.0f), power = input(i, -20.0f, 20.0f);
    float positive = input(i, 0.001f, 1000.0f), base = input(i, 0.05f, 8.0f), exponent = input(i, -3.0f, 3.0f);
    float numerator = input(i, -100.0f, 100.0f), denominator = input(i, 0.5f, 37.0f) * (i % 2 ? 1.0f : -1.0f);
    float m[FUNCTIONS] = {sinf(angle), cosf(angle), tanf(angle), expf(power), std::log(positive), logf(positive),
                          log2f(positive), log10f(positive), powf(base, exponent), numerator / denominator,
                          std::sin(angle), std::exp(power), std::pow(base, exponent)};
    float f[FUNCTIONS] = {__sinf(angle), __cosf(angle), __tanf(angle), __expf(power), __logf(positive),
                          __logf(positive), __log2f(positive), __log10f(positive), __powf(base, exponent),
                          __fdividef(numerator, denominator), __sinf(angle), __expf(power), __powf(base, exponent)};
    for (int k = 0; k < FUNCTIONS; k++) {
        mapped[k * N + i] = m[k];
        intrinsic[k * N + i] = f[k];
        if (__float_as_int(m[k]) != __float_as_int(f[k]))
            atomicAdd(&differs[k], 1);
    }
}

__global__ void exact(float *out) {
    float zero = threadIdx.x, one = zero + 1.0f;
    out[0] = expf(zero);
    out[1] = log2f(8.0f * one);
    out[2] = powf(2.0f * one, 10.0f);
    out[3] = sinf(zero);
    out[4] = cosf(zero);
    out[5] = 3.0f / (4.0f * one);
}

int main() {
    const char *names[FUNCTIONS] = {"sinf", "cosf", "tanf", "expf", "std::log", "logf", "log2f", "log10f", "powf",
                                    "x / y", "std::sin", "std::exp", "std::pow"};
    float *mapped, *intrinsic, *out;
    int *differs;
    cudaMallocManaged(&mapped, FUNCTIONS * N * sizeof(float));
    cudaMallocManaged(&intrinsic, FUNCTIONS * N * sizeof(float));
    cudaMallocManaged(&out, 6 * sizeof(float));
    cudaMallocManaged(&differs, FUNCTIONS * sizeof(int));
    for (int k = 0; k < FUNCTIONS; k++) differs[k] = 0;
    both_ways<<<1, N>>>(mapped, intrinsic, differs);
    exact<<<1, 1>>>(out);
    cudaDeviceSynchronize();
    for (int k = 0; k < FUNCTIONS; k++) {
        int host_differs = 0;
        for (int i = 0; i < N; i++) {
            float angle = -10.0f + 20.0f * i / (N - 1), power = -20.0f + 40.0f * i / (N - 1);
            float positive = 0.001f + (1000.0f - 0.001f) * i / (N - 1), base = 0.05f + 7.95f * i / (N - 1);
            float exponent = -3.0f + 6.0f * i / (N - 1);
            float numerator = -100.0f + 200.0f * i / (N - 1);
            float denominator = (0.5f + 36.5f * i / (N - 1)) * (i % 2 ? 1.0f : -1.0f);
            float h[FUNCTIONS] = {sinf(angle), cosf(angle), tanf(angle), expf(power), std::log(positive),
                                  logf(positive), log2f(positive), log10f(positive), powf(base, exponent),
                                  numerator / denominator, sinf(angle), expf(power), powf(base, exponent)};
            if (h[k] != mapped[k * N + i]) host_differs = 1;
        }
        printf("%-8s mapped != intrinsic on %d of %d inputs; host differs somewhere: %s\n", names[k], differs[k], N,
               host_differs ? "yes" : "no");
    }
    printf("expf(0) = %g, log2f(8) = %g, powf(2, 10) = %g, sinf(0) = %g, cosf(0) = %g, 3 / 4 = %g\n",
           out[0], out[1], out[2], out[3], out[4], out[5]);
    volatile float three = 3.0f;
    printf("host 1 / 3 = %.9g\n", 1.0f / three);
    return 0;
}
