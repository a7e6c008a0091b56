__global__ void k(char *out)
{
    out[0] = 'a;
}

// EXPECT: 3:14: error: missing terminating ' character
