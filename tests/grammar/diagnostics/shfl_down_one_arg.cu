__global__ void reduce(float *out, float v)
{
    v += __shfl_down_sync(0xffffffff);
    out[threadIdx.x] = v;
}

// EXPECT: 3:10: error: no matching function for call to '__shfl_down_sync' with arguments (unsigned int)
