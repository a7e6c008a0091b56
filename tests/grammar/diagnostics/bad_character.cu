__global__ void k(int *out)
{
    out[0] = 1 ` 2;
}

// EXPECT: 3:16: error: unexpected character '`'
