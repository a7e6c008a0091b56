__global__ void k(int *out, int n)
{
    while (n > 0 {
        n--;
    }
}

// EXPECT: 3:18: error: expected ')'
