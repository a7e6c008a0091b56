int hostOnly(int x) { return x + 1; }

__host__ __device__ int both(int x) { return hostOnly(x); }

__global__ void k(int *out) { out[0] = both(1); }

// EXPECT: 3:46: warning: calling a __host__ function("hostOnly") from a __host__ __device__ function("both") is not allowed
