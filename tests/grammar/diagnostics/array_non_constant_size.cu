__global__ void k(float *out, int n)
{
    float scratch[n];
    out[0] = 0.0f;
}

// EXPECT: 3:19: error: variable length array declaration not supported: array size is not a constant expression
