__global__ void k(int *out)
{
    out[threadIdx.x = 1;
}

// EXPECT: 3:24: error: expected ']'
