__global__ void fill(int *out) { out[threadIdx.x] = 7; }

int main()
{
    int *d;
    cudaMalloc((void **)&d, 32 * sizeof(int));
    fill(d);
    cudaFree(d);
    return 0;
}

// EXPECT: 7:5: error: a __global__ function call must be configured
