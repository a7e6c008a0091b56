#include <stdio.h>
__global__ void collatz(const unsigned long long *start, int *steps, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    unsigned long long v = start[i];
    int s = 0;
    while (v != 1) {
        v = (v & 1) ? 3 * v + 1 : v / 2;
        s++;
    }
    steps[i] = s;
}
int main()
{
    const int n = 256;
    unsigned long long h[n];
    for (int i = 0; i < n; i++) h[i] = 837799ull + 2 * i;
    h[7] = 63728127ull;
    unsigned long long *d; int *ds; int hs[n];
    cudaMalloc(&d, sizeof h); cudaMalloc(&ds, sizeof hs);
    cudaMemcpy(d, h, sizeof h, cudaMemcpyHostToDevice);
    collatz<<<2, 128>>>(d, ds, n);
    cudaMemcpy(hs, ds, sizeof hs, cudaMemcpyDeviceToHost);
    int best = 0;
    for (int i = 0; i < n; i++) if (hs[i] > hs[best]) best = i;
    printf("longest: %llu takes %d steps (%s)\n", h[best], hs[best], cudaGetErrorString(cudaGetLastError()));
    return 0;
}
