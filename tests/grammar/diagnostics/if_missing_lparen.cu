__global__ void k(int *out, int n)
{
    if n > 0)
        out[0] = n;
}

// EXPECT: 3:8: error: expected '(' after 'if'
