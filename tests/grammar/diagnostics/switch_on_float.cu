__device__ int pick(float x)
{
    switch (x) {
    case 0: return 0;
    }
    return 1;
}

// EXPECT: 3:13: error: statement requires expression of integer type ('float' invalid)
