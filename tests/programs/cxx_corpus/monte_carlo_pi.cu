// Monte Carlo estimate of pi with a deterministic per-thread LCG in integer arithmetic;
// hits are reduced in shared memory and summed with one atomicAdd per block.
#include <stdio.h>

#define THREADS 128
#define BLOCKS 16
#define SAMPLES_PER_THREAD 64

__device__ __host__ unsigned int lcg(unsigned int &state)
{
    state = state * 1664525u + 1013904223u;
    return state >> 16;   // 16 random bits
}

__global__ void countHits(unsigned long long *total)
{
    __shared__ unsigned int hits[THREADS];
    unsigned int tid = blockIdx.x * blockDim.x + threadIdx.x;
    unsigned int state = tid * 2654435761u + 17u;
    unsigned int mine = 0;
    for (int s = 0; s < SAMPLES_PER_THREAD; s++) {
        long long x = lcg(state);
        long long y = lcg(state);
        if (x * x + y * y < 65536LL * 65536LL) mine++;
    }
    hits[threadIdx.x] = mine;
    __syncthreads();
    for (int stride = THREADS / 2; stride > 0; stride /= 2) {
        if (threadIdx.x < stride) hits[threadIdx.x] += hits[threadIdx.x + stride];
        __syncthreads();
    }
    if (threadIdx.x == 0) atomicAdd(total, (unsigned long long)hits[0]);
}

int main(void)
{
    unsigned long long *d_total, total = 0;
    cudaMalloc(&d_total, sizeof(unsigned long long));
    cudaMemcpy(d_total, &total, sizeof(total), cudaMemcpyHostToDevice);
    countHits<<<BLOCKS, THREADS>>>(d_total);
    cudaMemcpy(&total, d_total, sizeof(total), cudaMemcpyDeviceToHost);

    unsigned long long cpu = 0;
    for (unsigned int tid = 0; tid < THREADS * BLOCKS; tid++) {
        unsigned int state = tid * 2654435761u + 17u;
        for (int s = 0; s < SAMPLES_PER_THREAD; s++) {
            long long x = lcg(state);
            long long y = lcg(state);
            if (x * x + y * y < 65536LL * 65536LL) cpu++;
        }
    }
    const long samples = (long)THREADS * BLOCKS * SAMPLES_PER_THREAD;
    printf("samples %ld hits %llu (cpu %llu)\n", samples, total, cpu);
    printf("pi ~= %.6f\n", 4.0 * (double)total / (double)samples);
    printf("%s\n", total == cpu ? "PASS" : "FAIL");
    cudaFree(d_total);
    return 0;
}
