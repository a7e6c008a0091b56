__global__ void k(int *out)
{
    int 2x = 1;
    out[0] = 2;
}

// EXPECT: 3:9: error: expected identifier or '('
