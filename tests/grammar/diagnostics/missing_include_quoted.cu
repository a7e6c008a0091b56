#include "nothere.h"

__global__ void k(int *out) { out[0] = 1; }

// EXPECT: 1:10: fatal error: 'nothere.h' file not found
