__global__ void k(int *out)
{
    int x = threadIdx + 1;
    out[0] = x;
}

// EXPECT: 3:23: error: invalid operands to binary expression ('const uint3' and 'int')
