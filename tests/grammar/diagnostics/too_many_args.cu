__device__ float twice(float a, float b)
{
    return 2.0f * a + b;
}

__global__ void k(float *out)
{
    out[threadIdx.x] = twice(1.0f, 2.0f, 3.0f);
}

// EXPECT: 8:24: error: too many arguments to function call, expected 2, have 3
