__global__ void k(int *out, int n)
{
    if (n == 1) {
    case 1:
        out[0] = 1;
    }
}

// EXPECT: 4:5: error: 'case' statement not in switch statement
