__global__ void k(float *a)
{
    int i = threadIdx.x;
    a[i] = squareRoot(a[i]);
}

// EXPECT: 4:12: error: use of undeclared identifier 'squareRoot'
