__global__ void k(float *out)
{
    if (threadIdx)
        out[0] = 1.0f;
}

// EXPECT: 3:9: error: value of type 'const uint3' is not contextually convertible to 'bool'
