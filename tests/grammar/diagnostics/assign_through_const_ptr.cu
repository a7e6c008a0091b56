__global__ void k(const float *in, float *out)
{
    in[threadIdx.x] = 0.0f;
    out[threadIdx.x] = in[threadIdx.x];
}

// EXPECT: 3:21: error: read-only variable is not assignable
