// Reversing an array in shared memory, with a static and a dynamic (extern __shared__)
// array, the size of the dynamic one given at launch.
#include <cstdio>

__global__ void staticReverse(int *d, int n)
{
    __shared__ int s[64];
    int t = threadIdx.x;
    int tr = n - t - 1;
    s[t] = d[t];
    __syncthreads();
    d[t] = s[tr];
}

__global__ void dynamicReverse(int *d, int n)
{
    extern __shared__ int s[];
    int t = threadIdx.x;
    int tr = n - t - 1;
    s[t] = d[t];
    __syncthreads();
    d[t] = s[tr];
}

__global__ void twoArrays(float *out, int nInts, int nFloats)
{
    extern __shared__ int shared[];
    int *ints = shared;
    float *floats = (float *)&ints[nInts];
    int t = threadIdx.x;
    if (t < nInts) ints[t] = t * 3;
    if (t < nFloats) floats[t] = t * 0.5f;
    __syncthreads();
    out[t] = (float)ints[nInts - 1 - (t % nInts)] + floats[nFloats - 1 - (t % nFloats)];
}

int main(void)
{
    const int n = 64;
    int a[n], r[n], d[n];
    for (int i = 0; i < n; i++) {
        a[i] = i * i;
        r[i] = (n - i - 1) * (n - i - 1);
        d[i] = 0;
    }
    int *d_d;
    cudaMalloc(&d_d, n * sizeof(int));
    cudaMemcpy(d_d, a, n * sizeof(int), cudaMemcpyHostToDevice);
    staticReverse<<<1, n>>>(d_d, n);
    cudaMemcpy(d, d_d, n * sizeof(int), cudaMemcpyDeviceToHost);
    int bad = 0;
    for (int i = 0; i < n; i++) bad += d[i] != r[i];
    printf("static reverse: %d errors, d[0]=%d\n", bad, d[0]);

    cudaMemcpy(d_d, a, n * sizeof(int), cudaMemcpyHostToDevice);
    dynamicReverse<<<1, n, n * sizeof(int)>>>(d_d, n);
    cudaMemcpy(d, d_d, n * sizeof(int), cudaMemcpyDeviceToHost);
    bad = 0;
    for (int i = 0; i < n; i++) bad += d[i] != r[i];
    printf("dynamic reverse: %d errors, d[63]=%d\n", bad, d[63]);

    float *d_f, f[96];
    cudaMalloc(&d_f, sizeof(f));
    twoArrays<<<1, 96, 40 * sizeof(int) + 24 * sizeof(float)>>>(d_f, 40, 24);
    cudaMemcpy(f, d_f, sizeof(f), cudaMemcpyDeviceToHost);
    float s = 0;
    for (int i = 0; i < 96; i++) s += f[i];
    printf("two arrays: f[0]=%.1f f[50]=%.1f sum=%.1f\n", f[0], f[50], s);
    cudaFree(d_d);
    cudaFree(d_f);
    return 0;
}
