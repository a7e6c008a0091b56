#include <cuda_fp99.h>

__global__ void k(int *out) { out[0] = 1; }

// EXPECT: 1:10: fatal error: 'cuda_fp99.h' file not found
