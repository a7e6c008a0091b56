__global__ void k(int *out)
{
    out[0] = __syncthreads_count();
}

// EXPECT: 3:14: error: too few arguments to function call, expected 1, have 0
