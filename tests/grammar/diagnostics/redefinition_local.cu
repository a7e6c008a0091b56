__global__ void k(int *out)
{
    int i = threadIdx.x;
    int i = blockIdx.x;
    out[i] = 0;
}

// EXPECT: 4:9: error: redefinition of 'i'
