__global__ void fill(int *out)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x
    out[i] = i;
}

// EXPECT: 3:50: error: expected ';' at end of declaration
