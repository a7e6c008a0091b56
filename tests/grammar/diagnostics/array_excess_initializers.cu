__constant__ float weights[3] = { 0.25f, 0.5f, 0.25f, 0.125f };

__global__ void k(float *out) { out[0] = weights[0]; }

// EXPECT: 1:55: error: excess elements in array initializer
