__global__ void k(float *out)
{
    float buf[-4];
    out[0] = buf[0];
}

// EXPECT: 3:15: error: array size is negative
