__global__ void k(float *a)
{
    a[0] = a[1] % 2.0f;
}

// EXPECT: 3:17: error: invalid operands to binary expression ('float' and 'float')
