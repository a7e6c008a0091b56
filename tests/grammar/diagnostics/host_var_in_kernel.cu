int scale = 3;

__global__ void k(int *out)
{
    out[threadIdx.x] = scale;
}

// EXPECT: 5:24: error: identifier "scale" is undefined in device code
