#ifndef BLOCK_SIZE
#error BLOCK_SIZE must be defined
#endif

__global__ void k(int *out) { out[0] = 1; }

// EXPECT: 2:2: error: "BLOCK_SIZE must be defined"
