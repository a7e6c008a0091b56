float hostScale(float x) { return 2.0f * x; }

__global__ void k(float *a)
{
    int i = threadIdx.x;
    a[i] = hostScale(a[i]);
}

// EXPECT: 6:12: error: calling a __host__ function("hostScale") from a __global__ function("k") is not allowed
