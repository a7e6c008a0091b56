__device__ int square(int x) { return x * x; }

int main()
{
    int y = square(3);
    return y;
}

// EXPECT: 5:13: error: calling a __device__ function("square") from a __host__ function("main") is not allowed
