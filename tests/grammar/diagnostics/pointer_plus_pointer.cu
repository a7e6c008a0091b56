__global__ void k(float *a, float *b)
{
    float *c = a + b;
    c[0] = 0.0f;
}

// EXPECT: 3:18: error: invalid operands to binary expression ('float *' and 'float *')
