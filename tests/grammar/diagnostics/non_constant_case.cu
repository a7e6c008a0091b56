__device__ int pick(int lane, int limit)
{
    switch (lane) {
    case 0: return 0;
    case limit: return 1;
    }
    return 2;
}

// EXPECT: 5:10: error: expression is not an integral constant expression
