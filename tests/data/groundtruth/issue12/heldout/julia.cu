#include <stdio.h>
#define DIM 96
struct cuComplex {
    float r, i;
};
__device__ int julia(int x, int y)
{
    const float scale = 1.5f;
    float jx = scale * (float)(DIM/2 - x) / (DIM/2);
    float jy = scale * (float)(DIM/2 - y) / (DIM/2);
    float cr = -0.8f, ci = 0.156f;
    float ar = jx, ai = jy;
    int i;
    for (i = 0; i < 200; i++) {
        float nr = ar * ar - ai * ai + cr;
        float ni = ai * ar + ar * ai + ci;
        ar = nr; ai = ni;
        if (ar * ar + ai * ai > 1000) return 0;
    }
    return 1;
}
__global__ void kernel(unsigned char *ptr)
{
    int x = blockIdx.x;
    int y = blockIdx.y;
    int offset = x + y * gridDim.x;
    ptr[offset] = 255 * julia(x, y);
}
int main(void)
{
    unsigned char *dev_bitmap;
    unsigned char bitmap[DIM * DIM];
    cudaMalloc((void**)&dev_bitmap, DIM * DIM);
    dim3 grid(DIM, DIM);
    kernel<<<grid, 1>>>(dev_bitmap);
    cudaMemcpy(bitmap, dev_bitmap, DIM * DIM, cudaMemcpyDeviceToHost);
    int set = 0;
    for (int i = 0; i < DIM * DIM; i++) set += bitmap[i] != 0;
    printf("%d of %d points in the set: %s\n", set, DIM * DIM, cudaGetErrorString(cudaGetLastError()));
    cudaFree(dev_bitmap);
    return 0;
}
