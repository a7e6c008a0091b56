template <int N>
__device__ int scaled(int x) { return N * x; }

__global__ void k(int *out)
{
    out[0] = scaled<float>(3);
}

// EXPECT: 6:21: error: template argument for non-type template parameter must be an expression
