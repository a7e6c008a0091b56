__device__ int twice(int x)
{
    return 2 * x
}

__global__ void k(int *out)
{
    int i = threadIdx.x
    out[i] = twice(i);
}

int main()
{
    int *d;
    cudaMalloc((void **)&d, 64);
    k<<<1, 16>>>(d);
    return 0;
}

// EXPECT: 3:17: error: expected ';' after return statement
// EXPECT: 8:24: error: expected ';' at end of declaration
