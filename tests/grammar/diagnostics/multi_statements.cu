__device__ int classify(int lane, int limit)
{
    switch (lane) {
    case 0: return 1;
    case 0: return 2;
    case limit: return 3;
    }
    break;
    return 0;
}

// EXPECT: 5:10: error: duplicate case value '0'
// EXPECT: 6:10: error: expression is not an integral constant expression
// EXPECT: 8:5: error: 'break' statement not in loop or switch statement
