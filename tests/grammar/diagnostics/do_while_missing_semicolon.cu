__global__ void k(int *out, int n)
{
    do {
        n--;
    } while (n > 0)
    out[0] = n;
}

// EXPECT: 5:20: error: expected ';' after do/while statement
