__global__ void k(int *out, int n)
{
    switch (n) {
    case 0:
        continue;
    default:
        out[0] = n;
    }
}

// EXPECT: 5:9: error: 'continue' statement not in loop statement
