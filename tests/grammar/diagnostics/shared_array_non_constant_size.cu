__global__ void k(float *out, int n)
{
    __shared__ float tile[n];
    tile[threadIdx.x] = out[threadIdx.x];
}

// EXPECT: 3:27: error: variable length array declaration not supported: array size is not a constant expression
