__global__ int compute(int *out)
{
    out[threadIdx.x] = 1;
    return 0;
}

// EXPECT: 1:16: error: a __global__ function must have a void return type
