__global__ void k(int *out, int n)
{
    while (1) {
        if (n-- == 0)
            break
        out[n] = n;
    }
}

// EXPECT: 5:18: error: expected ';' after break statement
