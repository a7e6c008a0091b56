__global__ void k(float *out)
{
    out[0] = (float)out;
}

// EXPECT: 3:14: error: cannot cast from type 'float *' to 'float'
