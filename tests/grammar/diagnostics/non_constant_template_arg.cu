template <int BLOCK>
__global__ void reduce(float *data)
{
    data[threadIdx.x % BLOCK] = 0.0f;
}

int main(int argc, char **argv)
{
    float *d;
    cudaMalloc((void **)&d, 1024);
    int block = argc * 128;
    reduce<block><<<1, 256>>>(d);
    return 0;
}

// EXPECT: 12:12: error: non-type template argument is not a constant expression
