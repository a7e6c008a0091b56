#define SQUARE(x) ((x) * (x))

__global__ void k(int *out)
{
    out[0] = SQUARE(2, 3);
}

// EXPECT: 5:14: error: too many arguments provided to function-like macro invocation
