#include <stdio.h>

__global__ void saxpy(float *y, const float *x, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    float a = alpha;
    y[i] = a * x[i] + y[i];
}

int main()
{
    float *d_x, *d_y;
    cudaMalloc((void **)&d_x, 1024);
    cudaMalloc((void **)&d_y, 1024);
    saxpy<<<4, 64>>>(d_y, d_x, N);
    reportResult(d_y);
    printf("done\n");
    return 0;
}

// EXPECT: 6:15: error: use of undeclared identifier 'alpha'
// EXPECT: 15:32: error: use of undeclared identifier 'N'
// EXPECT: 16:5: error: use of undeclared identifier 'reportResult'
