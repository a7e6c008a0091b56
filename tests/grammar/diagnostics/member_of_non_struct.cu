__global__ void k(int *out, int n)
{
    out[0] = n.x;
}

// EXPECT: 3:15: error: member reference base type 'int' is not a structure or union
