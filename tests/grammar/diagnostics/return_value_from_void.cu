__device__ void store(int *out, int v)
{
    out[0] = v;
    return v;
}

// EXPECT: 4:5: error: void function 'store' should not return a value
