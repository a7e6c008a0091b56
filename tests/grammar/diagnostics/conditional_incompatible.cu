__global__ void k(float *out, int *idx, int n)
{
    float *p = n > 0 ? out : idx;
    p[0] = 1.0f;
}

// EXPECT: 3:22: error: incompatible operand types ('float *' and 'int *')
