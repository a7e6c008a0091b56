__device__ int counter;
__device__ int counter;

__global__ void k() { counter = 1; }

// EXPECT: 2:16: error: redefinition of 'counter'
