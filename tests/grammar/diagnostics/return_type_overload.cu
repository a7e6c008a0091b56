__device__ int half(int x);
__device__ float half(int x);

__global__ void k(int *out) { out[0] = 1; }

// EXPECT: 2:18: error: functions that differ only in their return type cannot be overloaded
