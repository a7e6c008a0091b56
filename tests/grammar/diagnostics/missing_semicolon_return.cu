__device__ int square(int x)
{
    return x * x
}

__global__ void k(int *out)
{
    out[threadIdx.x] = square(threadIdx.x);
}

// EXPECT: 3:17: error: expected ';' after return statement
