__device__ float sq(float x) { return x * x; }
__device__ float sq(float x) { return x * x * 1.0f; }

__global__ void k(float *a) { a[0] = sq(a[0]); }

// EXPECT: 2:18: error: redefinition of 'sq'
