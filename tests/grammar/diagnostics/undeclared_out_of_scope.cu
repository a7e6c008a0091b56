__global__ void k(int *out, int n)
{
    for (int i = 0; i < n; i++) {
        out[i] = 0;
    }
    out[i] = 1;
}

// EXPECT: 6:9: error: use of undeclared identifier 'i'
