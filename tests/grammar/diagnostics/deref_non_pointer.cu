__global__ void k(int *out, int n)
{
    out[0] = *n;
}

// EXPECT: 3:14: error: indirection requires pointer operand ('int' invalid)
