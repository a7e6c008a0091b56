#defne N 16

__global__ void k(int *out) { out[0] = 1; }

// EXPECT: 1:2: error: invalid preprocessing directive
