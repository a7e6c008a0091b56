// Walking an array: each thread sums 256 elements of its own row at addresses known in
// advance (independent loads: the compiler can keep several in flight), or follows a chain
// whose next index is the element it just read (dependent loads: one round trip each).
#include <cstdio>
#include <cuda_runtime.h>
#define THREADS 1024
#define STEPS 256

__global__ void sumIndependent(const int *next, int *out)
{
    int t = blockIdx.x * blockDim.x + threadIdx.x;
    int s = 0;
    for (int k = 0; k < STEPS; k++) s += next[k * THREADS + t];
    out[t] = s;
}

__global__ void followChain(const int *next, int *out)
{
    int t = blockIdx.x * blockDim.x + threadIdx.x;
    int i = t, s = 0;
    for (int k = 0; k < STEPS; k++) {
        i = next[i];
        s += i;
    }
    out[t] = s;
}

int main(void)
{
    int n = THREADS * STEPS, *h = (int *)malloc(n * sizeof(int)), *dn, *dout, o[THREADS];
    // element k * THREADS + t points to row k + 1 of the same column, shifted by 37 columns:
    // a chain visits one element a row, like the independent walk, in another order
    for (int k = 0; k < STEPS; k++)
        for (int t = 0; t < THREADS; t++)
            h[k * THREADS + t] = ((k + 1) % STEPS) * THREADS + (t + 37) % THREADS;
    cudaMalloc(&dn, n * sizeof(int));
    cudaMalloc(&dout, THREADS * sizeof(int));
    cudaMemcpy(dn, h, n * sizeof(int), cudaMemcpyHostToDevice);
    sumIndependent<<<THREADS / 128, 128>>>(dn, dout);
    cudaMemcpy(o, dout, sizeof(o), cudaMemcpyDeviceToHost);
    printf("independent: %d %d\n", o[0], o[THREADS - 1]);
    followChain<<<THREADS / 128, 128>>>(dn, dout);
    cudaMemcpy(o, dout, sizeof(o), cudaMemcpyDeviceToHost);
    printf("chain: %d %d\n", o[0], o[THREADS - 1]);
    free(h);
    return 0;
}
