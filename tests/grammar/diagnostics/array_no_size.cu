__global__ void k(float *out)
{
    float buf[];
    out[0] = buf[0];
}

// EXPECT: 3:11: error: definition of variable with array type needs an explicit size or an initializer
