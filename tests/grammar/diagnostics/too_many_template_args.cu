template <int BLOCK>
__global__ void reduce(float *data)
{
    data[threadIdx.x % BLOCK] = 0.0f;
}

int main()
{
    float *d;
    cudaMalloc((void **)&d, 1024);
    reduce<256, 4><<<1, 256>>>(d);
    return 0;
}

// EXPECT: 11:5: error: too many template arguments for function template 'reduce'
