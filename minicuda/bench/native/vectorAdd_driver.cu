/*
 * vectorAdd_driver.cu: vectorAdd.cu's kernel at any size, on device-filled data,
 * for `minicuda bench`.
 *
 * The sample's own main has a fixed size (50000) and fills and checks its vectors
 * on the host, one element at a time; this driver takes the size from the command
 * line and fills the vectors with a kernel, so that the run is the launch that
 * bench measures.  The launch is the sample's: blocks of 256 threads.
 *
 * Usage: vectorAdd_driver numElements mask   (mask 1 runs the kernel)
 * It prints "bench vectorAdd FIRST LAST": the first and the last element of C,
 * which bench compares with the native and OpenCL versions.
 */
#define main vectorAdd_main
#include "vectorAdd.cu"
#undef main

// the benchmark's input: bytes / 10, computed
__global__ void benchFill(float *a, unsigned int n, unsigned int mul, unsigned int add)
{
    unsigned int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) a[i] = (float)((i * mul + add) & 0xFF) / 10.0f;
}

int main(int argc, char **argv)
{
    if (argc != 3)
    {
        printf("usage: %s numElements mask\n", argv[0]);
        return 2;
    }
    int numElements = atoi(argv[1]);
    int mask = atoi(argv[2]);
    size_t size = numElements * sizeof(float);

    float *d_A = NULL, *d_B = NULL, *d_C = NULL;
    cudaMalloc((void **)&d_A, size);
    cudaMalloc((void **)&d_B, size);
    cudaMalloc((void **)&d_C, size);
    int threadsPerBlock = 256;
    int blocksPerGrid = (numElements + threadsPerBlock - 1) / threadsPerBlock;
    benchFill<<<blocksPerGrid, threadsPerBlock>>>(d_A, numElements, 37, 11);
    benchFill<<<blocksPerGrid, threadsPerBlock>>>(d_B, numElements, 53, 7);

    if (mask & 1)
    {
        vectorAdd<<<blocksPerGrid, threadsPerBlock>>>(d_A, d_B, d_C, numElements);
        cudaDeviceSynchronize();
        float first = 0.0f, last = 0.0f;
        cudaMemcpy(&first, d_C, sizeof(float), cudaMemcpyDeviceToHost);
        cudaMemcpy(&last, d_C + numElements - 1, sizeof(float), cudaMemcpyDeviceToHost);
        printf("bench vectorAdd %.3f %.3f\n", first, last);
    }

    if (cudaGetLastError() != cudaSuccess)
    {
        printf("vectorAdd_driver: a CUDA call failed\n");
        return 1;
    }
    cudaFree(d_A);
    cudaFree(d_B);
    cudaFree(d_C);
    return 0;
}
