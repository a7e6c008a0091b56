__global__ void k(int *out)
{
    __constant__ int table[4];
    out[0] = table[0];
}

// EXPECT: 3:22: error: a "__constant__" variable declaration is not allowed inside a function body
