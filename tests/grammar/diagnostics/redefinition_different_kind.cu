__device__ int scale;
__device__ int scale(int x) { return 2 * x; }

__global__ void k(int *out) { out[0] = scale; }

// EXPECT: 2:16: error: redefinition of 'scale' as different kind of symbol
