int main()
{
    float h[16];
    float *d;
    cudaMalloc((void **)&d, sizeof(h));
    cudaMemcpy(d, h, sizeof(h));
    return 0;
}

// EXPECT: 6:5: error: too few arguments to function call, expected 4, have 3
