__device__ int add(int a, int b) { return a + b; }

__global__ void k(int *out)
{
    out[0] = add(1 2);
}

// EXPECT: 5:20: error: expected ')'
