__global__ void k(int *out)
{
    int *p;
    p = 1.5f;
    out[0] = *p;
}

// EXPECT: 4:9: error: assigning to 'int *' from incompatible type 'float'
