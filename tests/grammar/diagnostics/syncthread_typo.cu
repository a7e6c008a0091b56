__global__ void k(int *out)
{
    out[threadIdx.x] = 1;
    __syncthread();
    out[threadIdx.x] += out[0];
}

// EXPECT: 4:5: error: use of undeclared identifier '__syncthread'
