__global__ void k(int *out)
{
    int i = blockIdz.x * blockDim.x + threadIdx.x;
    out[i] = i;
}

// EXPECT: 3:13: error: use of undeclared identifier 'blockIdz'
