__global__ void k(int *out)
{
    threadIdx.x = 0;
    out[0] = threadIdx.x;
}

// EXPECT: 3:17: error: cannot assign to variable 'threadIdx' with const-qualified type 'const uint3'
