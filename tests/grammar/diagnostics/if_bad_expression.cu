#define BLOCK 256

#if BLOCK >
#define BIG 1
#endif

__global__ void k(int *out) { out[0] = 1; }

// EXPECT: 3:1: error: invalid expression in preprocessor conditional
