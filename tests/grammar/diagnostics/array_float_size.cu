__global__ void k(float *out)
{
    float buf[2.5f];
    out[0] = buf[0];
}

// EXPECT: 3:15: error: size of array has non-integer type 'float'
