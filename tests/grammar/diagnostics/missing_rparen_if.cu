__global__ void clamp(int *a, int n)
{
    int i = threadIdx.x;
    if (i < n {
        a[i] = 0;
    }
}

// EXPECT: 4:15: error: expected ')'
