#warning this code path is slow

__global__ void k(int *out) { out[0] = 1; }

// EXPECT: 1:2: warning: this code path is slow
