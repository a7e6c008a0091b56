__global__ void k(int *out)
{
    out[0] = (1 + 2;
}

// EXPECT: 3:20: error: expected ')'
