// Constant memory: filter taps and a small table copied with cudaMemcpyToSymbol, read
// back with cudaMemcpyFromSymbol, used by a 1D convolution.
#include <stdio.h>
#include "common.h"

#define TAPS 7
__constant__ float c_taps[TAPS];
__constant__ int c_table[4];

__global__ void convolve(const float *in, float *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    float acc = 0.0f;
    for (int k = 0; k < TAPS; k++) {
        int j = i + k - TAPS / 2;
        if (j >= 0 && j < n) acc += c_taps[k] * in[j];
    }
    out[i] = acc + (float)c_table[i % 4];
}

int main(void)
{
    const int n = 1024;
    float h_taps[TAPS] = {0.125f, 0.25f, 0.5f, 1.0f, 0.5f, 0.25f, 0.125f};
    int h_table[4] = {0, 10, 20, 30};
    CHECK(cudaMemcpyToSymbol(c_taps, h_taps, sizeof(h_taps)));
    CHECK(cudaMemcpyToSymbol(c_table, h_table, sizeof(h_table)));

    float *h_in = (float *)malloc(n * sizeof(float));
    float *h_out = (float *)malloc(n * sizeof(float));
    for (int i = 0; i < n; i++) h_in[i] = (float)(i % 32);
    float *d_in, *d_out;
    CHECK(cudaMalloc(&d_in, n * sizeof(float)));
    CHECK(cudaMalloc(&d_out, n * sizeof(float)));
    CHECK(cudaMemcpy(d_in, h_in, n * sizeof(float), cudaMemcpyHostToDevice));
    convolve<<<n / 128, 128>>>(d_in, d_out, n);
    CHECK(cudaGetLastError());
    CHECK(cudaMemcpy(h_out, d_out, n * sizeof(float), cudaMemcpyDeviceToHost));

    int errors = 0;
    double sum = 0;
    for (int i = 0; i < n; i++) {
        float acc = 0.0f;
        for (int k = 0; k < TAPS; k++) {
            int j = i + k - TAPS / 2;
            if (j >= 0 && j < n) acc += h_taps[k] * h_in[j];
        }
        acc += (float)h_table[i % 4];
        if (acc != h_out[i]) errors++;
        sum += h_out[i];
    }
    float back[TAPS];
    CHECK(cudaMemcpyFromSymbol(back, c_taps, sizeof(back)));
    printf("taps read back: %.3f %.3f %.3f\n", back[0], back[3], back[6]);
    printf("out[0]=%.3f out[5]=%.3f out[1023]=%.3f sum=%.3f\n", h_out[0], h_out[5], h_out[n - 1], sum);
    printf("errors: %d\n", errors);
    free(h_in);
    free(h_out);
    CHECK(cudaFree(d_in));
    CHECK(cudaFree(d_out));
    return 0;
}
