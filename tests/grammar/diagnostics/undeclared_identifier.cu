__global__ void scale(float *a, float s)
{
    int i = threadIdx.x;
    a[idx] = a[i] * s;
}

// EXPECT: 4:7: error: use of undeclared identifier 'idx'
