__global__ void k(int *out, int n)
{
    out[0] = n;
    else
        out[0] = 0;
}

// EXPECT: 4:5: error: expected expression
