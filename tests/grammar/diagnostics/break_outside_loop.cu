__global__ void k(int *out, int n)
{
    if (n > 4)
        break;
    out[0] = n;
}

// EXPECT: 4:9: error: 'break' statement not in loop or switch statement
