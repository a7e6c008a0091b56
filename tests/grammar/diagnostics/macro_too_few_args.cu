#define IDX(row, col, width) ((row) * (width) + (col))

__global__ void k(float *m)
{
    m[IDX(threadIdx.y, threadIdx.x)] = 0.0f;
}

// EXPECT: 5:7: error: too few arguments provided to function-like macro invocation
