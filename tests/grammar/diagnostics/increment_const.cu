__global__ void k(int *out)
{
    const int limit = 8;
    limit++;
    out[0] = limit;
}

// EXPECT: 4:10: error: cannot assign to variable 'limit' with const-qualified type 'const int'
