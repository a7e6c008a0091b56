// The book's pinMemTransfer shape with the timings left out: pageable and pinned buffers
// copied to the device and back, round trips checked byte for byte, and a pinned buffer
// allocated with cudaHostAlloc's default flags.  Values: h[i] = (i * 37) % 251.
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <cuda_runtime.h>

int roundTrip(unsigned char *src, unsigned char *dst, unsigned char *d, size_t bytes) {
    cudaMemcpy(d, src, bytes, cudaMemcpyHostToDevice);
    cudaMemset(d, 0, 16);
    cudaMemcpy(dst, d, bytes, cudaMemcpyDeviceToHost);
    int diff = 0;
    for (size_t i = 0; i < bytes; i++)
        if (dst[i] != src[i]) diff++;
    return diff;
}

int main() {
    const size_t bytes = 1 << 10;
    unsigned char *d;
    cudaMalloc(&d, bytes);
    unsigned char *pageable = (unsigned char *)malloc(bytes), *pageableBack = (unsigned char *)malloc(bytes);
    unsigned char *pinned, *pinnedBack;
    cudaMallocHost((void **)&pinned, bytes);
    cudaHostAlloc((void **)&pinnedBack, bytes, cudaHostAllocDefault);
    for (size_t i = 0; i < bytes; i++) pageable[i] = pinned[i] = (unsigned char)((i * 37) % 251);
    printf("pageable: %d bytes differ\n", roundTrip(pageable, pageableBack, d, bytes));
    printf("pinned: %d bytes differ\n", roundTrip(pinned, pinnedBack, d, bytes));
    printf("same result: %s\n", memcmp(pageableBack, pinnedBack, bytes) == 0 ? "yes" : "no");
    printf("byte 20: %d\n", pinnedBack[20]);
    printf("bad cudaHostAlloc flags: %s\n", cudaGetErrorName(cudaHostAlloc((void **)&pinned, 16, 0x100)));
    cudaGetLastError();
    free(pageable);
    free(pageableBack);
    cudaFreeHost(pinned);
    cudaFreeHost(pinnedBack);
    cudaFree(d);
    return 0;
}
