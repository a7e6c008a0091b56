__device__ float lerp(float a, float b, float t)
{
    return a + t * (b - a);
}

__global__ void k(float *out)
{
    out[threadIdx.x] = lerp(0.0f, 1.0f);
}

// EXPECT: 8:24: error: too few arguments to function call, expected 3, have 2
