__global__ void k(int *out)
{
    out[threadIdx.x] = 1;
    __syncthreads(1);
}

// EXPECT: 4:5: error: too many arguments to function call, expected 0, have 1
