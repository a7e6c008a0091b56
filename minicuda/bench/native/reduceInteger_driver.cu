/*
 * reduceInteger_driver.cu: reduceInteger.cu's nine kernels on device-filled data,
 * for `minicuda bench`.
 *
 * The sample's own main fills its input on the host one element at a time; this
 * driver fills it with a kernel, so that at any size the run is the launches that
 * bench measures.  Each kernel reduces the input in place, so the input is copied
 * back from a pristine device copy before every kernel, as the sample reloads it.
 *
 * Usage: reduceInteger_driver blocksize size mask
 *   bit i of mask runs kernel i, in the sample's order (511 runs all nine).
 * Per kernel it prints "bench KERNEL FIRST LAST": the first and the last block's
 * partial sums, which bench compares with the native and OpenCL versions.
 */
#define main reduceInteger_main
#include "reduceInteger.cu"
#undef main

// the benchmark's input: bytes, like the sample's rand() & 0xFF, but computed
__global__ void benchFill(int *a, unsigned int n)
{
    unsigned int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) a[i] = (int)((i * 37u + 11u) & 0xFF);
}

// print the first and the last partial sum of a launch of `blocks` blocks
void report(const char *kernel, int *d_odata, int blocks)
{
    int first = 0, last = 0;
    CHECK(cudaDeviceSynchronize());
    CHECK(cudaMemcpy(&first, d_odata, sizeof(int), cudaMemcpyDeviceToHost));
    CHECK(cudaMemcpy(&last, d_odata + blocks - 1, sizeof(int), cudaMemcpyDeviceToHost));
    printf("bench %s %d %d\n", kernel, first, last);
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
    size_t bytes = size * sizeof(int);

    int *d_pristine = NULL;
    int *d_idata = NULL;
    int *d_odata = NULL;
    CHECK(cudaMalloc((void **)&d_pristine, bytes));
    CHECK(cudaMalloc((void **)&d_idata, bytes));
    CHECK(cudaMalloc((void **)&d_odata, grid.x * sizeof(int)));
    benchFill<<<grid, block>>>(d_pristine, size);
    CHECK(cudaDeviceSynchronize());

    if (mask & 1)
    {
        CHECK(cudaMemcpy(d_idata, d_pristine, bytes, cudaMemcpyDeviceToDevice));
        reduceNeighbored<<<grid, block>>>(d_idata, d_odata, size);
        report("reduceNeighbored", d_odata, grid.x);
    }
    if (mask & 2)
    {
        CHECK(cudaMemcpy(d_idata, d_pristine, bytes, cudaMemcpyDeviceToDevice));
        reduceNeighboredLess<<<grid, block>>>(d_idata, d_odata, size);
        report("reduceNeighboredLess", d_odata, grid.x);
    }
    if (mask & 4)
    {
        CHECK(cudaMemcpy(d_idata, d_pristine, bytes, cudaMemcpyDeviceToDevice));
        reduceInterleaved<<<grid, block>>>(d_idata, d_odata, size);
        report("reduceInterleaved", d_odata, grid.x);
    }
    if (mask & 8)
    {
        CHECK(cudaMemcpy(d_idata, d_pristine, bytes, cudaMemcpyDeviceToDevice));
        reduceUnrolling2<<<grid.x / 2, block>>>(d_idata, d_odata, size);
        report("reduceUnrolling2", d_odata, grid.x / 2);
    }
    if (mask & 16)
    {
        CHECK(cudaMemcpy(d_idata, d_pristine, bytes, cudaMemcpyDeviceToDevice));
        reduceUnrolling4<<<grid.x / 4, block>>>(d_idata, d_odata, size);
        report("reduceUnrolling4", d_odata, grid.x / 4);
    }
    if (mask & 32)
    {
        CHECK(cudaMemcpy(d_idata, d_pristine, bytes, cudaMemcpyDeviceToDevice));
        reduceUnrolling8<<<grid.x / 8, block>>>(d_idata, d_odata, size);
        report("reduceUnrolling8", d_odata, grid.x / 8);
    }
    if (mask & 64)
    {
        CHECK(cudaMemcpy(d_idata, d_pristine, bytes, cudaMemcpyDeviceToDevice));
        reduceUnrollWarps8<<<grid.x / 8, block>>>(d_idata, d_odata, size);
        report("reduceUnrollWarps8", d_odata, grid.x / 8);
    }
    if (mask & 128)
    {
        CHECK(cudaMemcpy(d_idata, d_pristine, bytes, cudaMemcpyDeviceToDevice));
        reduceCompleteUnrollWarps8<<<grid.x / 8, block>>>(d_idata, d_odata, size);
        report("reduceCompleteUnrollWarps8", d_odata, grid.x / 8);
    }
    if (mask & 256)
    {
        CHECK(cudaMemcpy(d_idata, d_pristine, bytes, cudaMemcpyDeviceToDevice));
        switch (blocksize)
        {
        case 1024:
            reduceCompleteUnroll<1024><<<grid.x / 8, block>>>(d_idata, d_odata, size);
            break;
        case 512:
            reduceCompleteUnroll<512><<<grid.x / 8, block>>>(d_idata, d_odata, size);
            break;
        case 256:
            reduceCompleteUnroll<256><<<grid.x / 8, block>>>(d_idata, d_odata, size);
            break;
        case 128:
            reduceCompleteUnroll<128><<<grid.x / 8, block>>>(d_idata, d_odata, size);
            break;
        case 64:
            reduceCompleteUnroll<64><<<grid.x / 8, block>>>(d_idata, d_odata, size);
            break;
        }
        report("reduceCompleteUnroll", d_odata, grid.x / 8);
    }

    CHECK(cudaFree(d_pristine));
    CHECK(cudaFree(d_idata));
    CHECK(cudaFree(d_odata));
    return 0;
}
