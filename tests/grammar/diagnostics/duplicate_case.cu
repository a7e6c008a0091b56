__device__ int classify(int lane)
{
    switch (lane) {
    case 0: return 10;
    case 1: return 11;
    case 0: return 12;
    }
    return -1;
}

// EXPECT: 6:10: error: duplicate case value '0'
