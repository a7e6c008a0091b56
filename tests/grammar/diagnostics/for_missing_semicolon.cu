__global__ void k(int *out, int n)
{
    for (int i = 0; i < n i++)
        out[i] = 0;
}

// EXPECT: 3:26: error: expected ';' in 'for' statement specifier
