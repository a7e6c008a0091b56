__device__ int counter;

int main()
{
    int c = counter;
    return c;
}

// EXPECT: 5:13: warning: a __device__ variable "counter" cannot be directly read in a host function
