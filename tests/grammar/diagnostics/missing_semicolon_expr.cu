__global__ void scale(float *a, float s)
{
    int i = threadIdx.x;
    a[i] = a[i] * s
    a[i] += 1.0f;
}

// EXPECT: 4:20: error: expected ';' after expression
