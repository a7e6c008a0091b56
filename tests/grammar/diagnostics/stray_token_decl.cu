__global__ void k(int *out)
{
    int x = 1 + 2);
    out[0] = x;
}

// EXPECT: 3:18: error: expected ';' at end of declaration
