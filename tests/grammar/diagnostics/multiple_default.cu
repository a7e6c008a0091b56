__device__ int pick(int lane)
{
    switch (lane) {
    default: return 0;
    case 1: return 1;
    default: return 2;
    }
}

// EXPECT: 6:5: error: multiple default labels in one switch
