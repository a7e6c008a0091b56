__global__ void k(float *out)
{
    __shared__ float total = 0.0f;
    out[0] = total;
}

// EXPECT: 3:30: error: initialization is not supported for __shared__ variables
