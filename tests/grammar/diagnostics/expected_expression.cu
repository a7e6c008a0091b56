__global__ void k(int *out)
{
    int x = ;
    out[0] = x;
}

// EXPECT: 3:13: error: expected expression
