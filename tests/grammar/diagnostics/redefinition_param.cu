__global__ void k(int *out, int n, int n)
{
    out[0] = n;
}

// EXPECT: 1:40: error: redefinition of parameter 'n'
