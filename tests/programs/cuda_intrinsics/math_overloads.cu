// C++'s math overloads as nvcc's headers declare them: sin of a float is a float in host and
// device code alike; arguments that are not all float make the double form (libstdc++'s
// templates), pow(x, 2) included. Recorded on an H100 (nvcc 13.0), as printed here.
#include <cstdio>
#include <cmath>
#include <cstdlib>

__global__ void sizes(int *o, float x) {
    o[0] = sizeof(sin(x)); o[1] = sizeof(sqrt(x)); o[2] = sizeof(abs(x)); o[3] = sizeof(pow(x, 2.5f));
    o[4] = sizeof(pow(x, 2)); o[5] = sizeof(fabs(x)); o[6] = sizeof(fmin(x, 1.0f)); o[7] = sizeof(sin(0.5));
}

__global__ void values(float *o, float x) {
    o[0] = sqrt(x); o[1] = fabs(-x); o[2] = abs(-x); o[3] = floor(x * 3.0f); o[4] = fmin(x, 0.25f);
    o[5] = fmax(x, 0.25f); o[6] = copysign(x, -1.0f); o[7] = fdim(x, 0.5f); o[8] = fma(x, x, 1.0f); o[9] = ceil(x);
}

int main() {
    float x = 0.7f;
    int *ds; float *dv;
    cudaMalloc(&ds, 8 * sizeof(int));
    cudaMalloc(&dv, 10 * sizeof(float));
    sizes<<<1, 1>>>(ds, x);
    values<<<1, 1>>>(dv, x);
    int s[8]; float v[10];
    cudaMemcpy(s, ds, sizeof s, cudaMemcpyDeviceToHost);
    cudaMemcpy(v, dv, sizeof v, cudaMemcpyDeviceToHost);
    printf("device sizes:");
    for (int i = 0; i < 8; i++) printf(" %d", s[i]);
    printf("\ndevice values:");
    for (int i = 0; i < 10; i++) printf(" %a", v[i]);
    printf("\nhost sizes: %d %d %d %d %d %d %d %d\n", (int)sizeof(sin(x)), (int)sizeof(sqrt(x)), (int)sizeof(abs(x)),
           (int)sizeof(pow(x, 2.5f)), (int)sizeof(pow(x, 2)), (int)sizeof(fmax(x, 1)), (int)sizeof(std::sqrt(x)),
           (int)sizeof(sqrt(7)));
    // a float result printed as the float it is, a promoted one as the double it is
    printf("host values: %a %a %a %a %a %a\n", sqrt(x), pow(x, 2), fabs(-x), abs(-x), fmax(x, 1), sqrt(7));
    long l = -5;
    printf("abs: %d %ld %a\n", abs(-3), abs(l), abs(-2.5));
    cudaFree(ds);
    cudaFree(dv);
    return 0;
}
