/*
 * sumMatrix_driver.cu: sumMatrix.cu's kernel on device-filled data, for
 * `minicuda bench`.
 *
 * The sample's own main fills and checks its matrices on the host, one element at
 * a time; this driver fills them with a kernel, so that at any size the run is the
 * launch that bench measures.
 *
 * Usage: sumMatrix_driver nx ny dimx dimy mask   (mask 1 runs the kernel)
 * It prints "bench sumMatrixOnGPU2D FIRST LAST": the first and the last element
 * of C, which bench compares with the native and OpenCL versions.
 */
#define main sumMatrix_main
#include "sumMatrix.cu"
#undef main

// the benchmark's input: bytes / 10, like the sample's initialData, but computed
__global__ void benchFill(float *a, unsigned int n, unsigned int mul, unsigned int add)
{
    unsigned int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) a[i] = (float)((i * mul + add) & 0xFF) / 10.0f;
}

int main(int argc, char **argv)
{
    if (argc != 6)
    {
        printf("usage: %s nx ny dimx dimy mask\n", argv[0]);
        return 2;
    }
    int nx = atoi(argv[1]);
    int ny = atoi(argv[2]);
    int mask = atoi(argv[5]);
    int nxy = nx * ny;
    size_t nBytes = nxy * sizeof(float);

    float *d_MatA, *d_MatB, *d_MatC;
    CHECK(cudaMalloc((void **)&d_MatA, nBytes));
    CHECK(cudaMalloc((void **)&d_MatB, nBytes));
    CHECK(cudaMalloc((void **)&d_MatC, nBytes));
    benchFill<<<(nxy + 255) / 256, 256>>>(d_MatA, nxy, 37, 11);
    benchFill<<<(nxy + 255) / 256, 256>>>(d_MatB, nxy, 53, 7);

    dim3 block(atoi(argv[3]), atoi(argv[4]));
    dim3 grid((nx + block.x - 1) / block.x, (ny + block.y - 1) / block.y);
    if (mask & 1)
    {
        sumMatrixOnGPU2D<<<grid, block>>>(d_MatA, d_MatB, d_MatC, nx, ny);
        CHECK(cudaDeviceSynchronize());
        float first = 0.0f, last = 0.0f;
        CHECK(cudaMemcpy(&first, d_MatC, sizeof(float), cudaMemcpyDeviceToHost));
        CHECK(cudaMemcpy(&last, d_MatC + nxy - 1, sizeof(float), cudaMemcpyDeviceToHost));
        printf("bench sumMatrixOnGPU2D %.3f %.3f\n", first, last);
    }

    CHECK(cudaFree(d_MatA));
    CHECK(cudaFree(d_MatB));
    CHECK(cudaFree(d_MatC));
    return 0;
}
