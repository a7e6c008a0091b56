__device__ float *pick(float *a, int i)
{
    return a[i];
}

__global__ void k(float *a)
{
    *pick(a, 0) = 1.0f;
}

// EXPECT: 3:12: error: cannot initialize return object of type 'float *' with an lvalue of type 'float'
