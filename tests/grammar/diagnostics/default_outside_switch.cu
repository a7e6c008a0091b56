__global__ void k(int *out, int n)
{
    while (n > 0) {
    default:
        n--;
    }
    out[0] = n;
}

// EXPECT: 4:5: error: 'default' statement not in switch statement
