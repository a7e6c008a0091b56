int main()
{
    float *d;
    cudaMalloc((void **)&d);
    cudaFree(d);
    return 0;
}

// EXPECT: 4:5: error: too few arguments to function call, expected 2, have 1
