__global__ void k(int *out)
{
    for (int i = 0; i < 4; i++) {
        out[i] = i;
    }

// EXPECT: 5:6: error: expected '}'
