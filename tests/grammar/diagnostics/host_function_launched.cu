void setup(int *p) { p[0] = 0; }

int main()
{
    int *d;
    cudaMalloc((void **)&d, sizeof(int));
    setup<<<1, 1>>>(d);
    return 0;
}

// EXPECT: 7:5: error: a host function call cannot be configured
