__global__ __device__ void k(int *out)
{
    out[0] = 1;
}

// EXPECT: 1:28: error: a __global__ function cannot also be declared __device__
