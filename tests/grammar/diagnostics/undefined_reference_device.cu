__device__ int twice(int x);
__global__ void k(int *out);

__global__ void k2(int *out)
{
    out[0] = twice(out[1]) + twice(out[2]);
}

int main()
{
    k<<<1, 1>>>(0);
    return 0;
}

// EXPECT: 6:14: error: undefined reference to 'twice(int)'
// EXPECT: 11:5: error: undefined reference to 'k(int *)'
