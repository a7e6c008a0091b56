__global__ void add(float *a, float *b, int n)
{
    int i = threadIdx.x;
    if (i < n) a[i] += b[i];
}

int main()
{
    float *a, *b;
    cudaMalloc((void **)&a, 64);
    cudaMalloc((void **)&b, 64);
    add<<<1, 16>>>(a, b);
    return 0;
}

// EXPECT: 12:5: error: too few arguments to function call, expected 3, have 2
