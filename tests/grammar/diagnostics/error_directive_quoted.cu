#if __CUDACC_VER_MAJOR__ < 99
#error "this kernel needs CUDA 99"
#endif

__global__ void k(int *out) { out[0] = 1; }

// EXPECT: 2:2: error: "this kernel needs CUDA 99"
