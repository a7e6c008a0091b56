#include <stdio.h>
#include <stdlib.h>
#define CHECK(call) do { cudaError_t err = (call); if (err != cudaSuccess) { \
    fprintf(stderr, "CUDA error at %s:%d: %s (%s)\n", __FILE__, __LINE__, cudaGetErrorString(err), cudaGetErrorName(err)); \
    exit(EXIT_FAILURE); } } while (0)
int main()
{
    const int N = 1000;
    float *h = (float *)malloc(N * sizeof(float));
    for (int i = 0; i < N; i++) h[i] = i;
    float *d;
    CHECK(cudaMalloc(&d, N * sizeof(float)));
    CHECK(cudaMemcpy(d, h, N * sizeof(float), cudaMemcpyHostToDevice));
    printf("copied %d floats\n", N);
    CHECK(cudaMemcpy(h, d, N * sizeof(double), cudaMemcpyDeviceToHost));
    printf("copied back\n");
    return 0;
}
