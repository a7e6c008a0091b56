__device__ int scale(int x);
__device__ int offset(int x) { return scale(x) + 1; }

__global__ void k(int *out)
{
    out[0] = offset(out[1]);
}

int main()
{
    k<<<1, 1>>>(0);
    return 0;
}

// EXPECT: 2:39: error: undefined reference to 'scale(int)'
