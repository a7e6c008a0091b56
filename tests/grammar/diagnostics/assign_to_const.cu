__global__ void k(int *out)
{
    const int n = 32;
    n = 64;
    out[0] = n;
}

// EXPECT: 4:7: error: cannot assign to variable 'n' with const-qualified type 'const int'
