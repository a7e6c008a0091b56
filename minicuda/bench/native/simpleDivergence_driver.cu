/*
 * simpleDivergence_driver.cu: simpleDivergence.cu's five kernels, selectable, for
 * `minicuda bench`.
 *
 * The kernels only write; the launches are the sample's.
 *
 * Usage: simpleDivergence_driver blocksize size mask
 *   bit i of mask runs kernel i: warmingup, mathKernel1, 2, 3, 4 (31 runs all five).
 * Per kernel it prints "bench KERNEL FIRST LAST": c[0] + c[1] and c[size - 2] +
 * c[size - 1], which bench compares with the native and OpenCL versions.
 */
#define main simpleDivergence_main
#include "simpleDivergence.cu"
#undef main

// print c[0] + c[1] and the sum of the last two elements
void report(const char *kernel, float *d_C, int size)
{
    float head[2], tail[2];
    cudaDeviceSynchronize();
    cudaMemcpy(head, d_C, 2 * sizeof(float), cudaMemcpyDeviceToHost);
    cudaMemcpy(tail, d_C + size - 2, 2 * sizeof(float), cudaMemcpyDeviceToHost);
    printf("bench %s %.3f %.3f\n", kernel, head[0] + head[1], tail[0] + tail[1]);
}

int main(int argc, char **argv)
{
    if (argc != 4)
    {
        printf("usage: %s blocksize size mask\n", argv[0]);
        return 2;
    }
    int blocksize = atoi(argv[1]);
    int size = atoi(argv[2]);
    int mask = atoi(argv[3]);
    dim3 block(blocksize, 1);
    dim3 grid((size + block.x - 1) / block.x, 1);

    float *d_C;
    cudaMalloc((float **)&d_C, size * sizeof(float));

    if (mask & 1)
    {
        warmingup<<<grid, block>>>(d_C);
        report("warmingup", d_C, size);
    }
    if (mask & 2)
    {
        mathKernel1<<<grid, block>>>(d_C);
        report("mathKernel1", d_C, size);
    }
    if (mask & 4)
    {
        mathKernel2<<<grid, block>>>(d_C);
        report("mathKernel2", d_C, size);
    }
    if (mask & 8)
    {
        mathKernel3<<<grid, block>>>(d_C);
        report("mathKernel3", d_C, size);
    }
    if (mask & 16)
    {
        mathKernel4<<<grid, block>>>(d_C);
        report("mathKernel4", d_C, size);
    }

    if (cudaGetLastError() != cudaSuccess)
    {
        printf("simpleDivergence_driver: a CUDA call failed\n");
        return 1;
    }
    cudaFree(d_C);
    return 0;
}
