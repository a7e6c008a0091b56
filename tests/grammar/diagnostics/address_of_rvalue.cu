__global__ void k(int *out, int n)
{
    int *p = &(n + 1);
    out[0] = *p;
}

// EXPECT: 3:14: error: cannot take the address of an rvalue of type 'int'
