__device__ void work(int *p) { p[0] = 0; }

int main()
{
    int *d;
    cudaMalloc((void **)&d, sizeof(int));
    work<<<1, 1>>>(d);
    return 0;
}

// EXPECT: 7:5: error: a __device__ function call cannot be configured
