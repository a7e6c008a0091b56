__global__ void k(float *data)
{
    int *p = data;
    p[threadIdx.x] = 0;
}

// EXPECT: 3:14: error: cannot initialize a variable of type 'int *' with an lvalue of type 'float *'
