int hostOffset(int i) { return i + 1; }
__device__ int devScale(int i) { return 2 * i; }
__global__ void k(int *out) { out[threadIdx.x] = hostOffset(threadIdx.x); }

int main()
{
    int *d;
    cudaMalloc((void **)&d, 64);
    int s = devScale(3);
    k(d);
    return s;
}

// EXPECT: 3:50: error: calling a __host__ function("hostOffset") from a __global__ function("k") is not allowed
// EXPECT: 9:13: error: calling a __device__ function("devScale") from a __host__ function("main") is not allowed
// EXPECT: 10:5: error: a __global__ function call must be configured
