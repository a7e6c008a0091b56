__global__ void k(int *out)
{
    int x;
    x = (1 + 2));
    out[0] = x;
}

// EXPECT: 4:16: error: extraneous ')' before ';'
