__global__ void k(float *out, int n)
{
    out[0] = n(2);
}

// EXPECT: 3:14: error: called object type 'int' is not a function or function pointer
