__global__ void k(int *out)
{
    out[0] = 1;
}
}

// EXPECT: 5:1: error: extraneous closing brace ('}')
