__global__ void k(int *out)
{
    out[threadIdx.x] = threadIdx.w;
}

// EXPECT: 3:34: error: no member named 'w' in 'uint3'
