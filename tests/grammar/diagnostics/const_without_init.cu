__global__ void k(float *out)
{
    const float scale;
    out[0] = scale;
}

// EXPECT: 3:17: error: default initialization of an object of const type 'const float'
