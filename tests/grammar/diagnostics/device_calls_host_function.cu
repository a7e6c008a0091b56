int hostHelper(int x) { return x + 1; }

__device__ int helper(int x) { return hostHelper(x); }

__global__ void k(int *out) { out[0] = helper(1); }

// EXPECT: 3:39: error: calling a __host__ function("hostHelper") from a __device__ function("helper") is not allowed
