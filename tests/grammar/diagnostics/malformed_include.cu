#include nothere

__global__ void k(int *out) { out[0] = 1; }

// EXPECT: 1:10: error: expected "FILENAME" or <FILENAME>
