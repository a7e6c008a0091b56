__global__ void child(int *p) { p[threadIdx.x] = 1; }

__global__ void parent(int *p)
{
    child<<<1, 32>>>(p);
}

// EXPECT: 5:5: error: kernel launch from __device__ or __global__ functions requires separate compilation mode
