#include <stdlib.h>

__global__ void k(int *out, const char *text) {
  out[0] = (int)strtol(text, 0, 10);
}

// EXPECT: 4:17: error: calling a __host__ function("strtol") from a __global__ function("k") is not allowed
