// A 256-bin histogram with atomics: per-block bins in shared memory merged with global
// atomicAdd (CUDA by Example's histo_kernel), checked against the host count.
#include "book.h"

#define SIZE (16 * 1024)

__global__ void histo_kernel(unsigned char *buffer, long size, unsigned int *histo)
{
    __shared__ unsigned int temp[256];
    temp[threadIdx.x] = 0;
    __syncthreads();

    int i = threadIdx.x + blockIdx.x * blockDim.x;
    int offset = blockDim.x * gridDim.x;
    while (i < size) {
        atomicAdd(&temp[buffer[i]], 1);
        i += offset;
    }
    __syncthreads();
    atomicAdd(&(histo[threadIdx.x]), temp[threadIdx.x]);
}

int main(void)
{
    unsigned char *buffer = (unsigned char *)big_random_block_of<unsigned char>(SIZE, 12345);

    unsigned char *dev_buffer;
    unsigned int *dev_histo;
    HANDLE_ERROR(cudaMalloc((void **)&dev_buffer, SIZE));
    HANDLE_ERROR(cudaMemcpy(dev_buffer, buffer, SIZE, cudaMemcpyHostToDevice));
    HANDLE_ERROR(cudaMalloc((void **)&dev_histo, 256 * sizeof(int)));
    HANDLE_ERROR(cudaMemset(dev_histo, 0, 256 * sizeof(int)));

    int blocks = 8;
    histo_kernel<<<blocks * 2, 256>>>(dev_buffer, SIZE, dev_histo);

    unsigned int histo[256];
    HANDLE_ERROR(cudaMemcpy(histo, dev_histo, 256 * sizeof(int), cudaMemcpyDeviceToHost));

    long histoCount = 0;
    unsigned int most = 0;
    int mostBin = 0;
    for (int i = 0; i < 256; i++) {
        histoCount += histo[i];
        if (histo[i] > most) { most = histo[i]; mostBin = i; }
    }
    printf("Histogram Sum: %ld\n", histoCount);
    printf("bins 0..3: %u %u %u %u, fullest bin %d (%u)\n", histo[0], histo[1], histo[2], histo[3], mostBin, most);

    for (int i = 0; i < SIZE; i++) histo[buffer[i]]--;
    int bad = 0;
    for (int i = 0; i < 256; i++)
        if (histo[i] != 0) bad++;
    printf(bad ? "Histogram differs in %d bins\n" : "Histogram matches the CPU%.0d\n", bad);

    HANDLE_ERROR(cudaFree(dev_histo));
    HANDLE_ERROR(cudaFree(dev_buffer));
    free(buffer);
    return 0;
}
