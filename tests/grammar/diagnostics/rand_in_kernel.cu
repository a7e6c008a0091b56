#include <stdlib.h>

__global__ void noise(float *a)
{
    a[threadIdx.x] = rand() / (float)RAND_MAX;
}

// EXPECT: 5:22: error: calling a __host__ function("rand") from a __global__ function("noise") is not allowed
