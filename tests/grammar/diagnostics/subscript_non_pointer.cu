__global__ void k(int *out, int n)
{
    out[0] = n[0];
}

// EXPECT: 3:15: error: subscripted value is not an array, pointer, or vector
