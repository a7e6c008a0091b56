// The simpleZeroCopy sample's shape: mapped pinned memory (cudaSetDeviceFlags with
// cudaDeviceMapHost, cudaHostAlloc with cudaHostAllocMapped), the device pointer from
// cudaHostGetDevicePointer, and a kernel reading and writing host memory directly.
// Kernel: c[i] = a[i] + b[i] with a[i] = i, b[i] = 0.5 * i.
#include <cstdio>
#include <cuda_runtime.h>

__global__ void vectorAdd(const float *a, const float *b, float *c, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) c[i] = a[i] + b[i];
}

int main() {
    cudaDeviceProp prop;
    cudaGetDeviceProperties(&prop, 0);
    if (!prop.canMapHostMemory) { printf("cannot map host memory\n"); return 0; }
    printf("cudaSetDeviceFlags: %s\n", cudaGetErrorName(cudaSetDeviceFlags(cudaDeviceMapHost)));
    const int n = 1 << 11;
    float *a, *b, *c;
    cudaHostAlloc((void **)&a, n * sizeof(float), cudaHostAllocMapped);
    cudaHostAlloc((void **)&b, n * sizeof(float), cudaHostAllocMapped | cudaHostAllocWriteCombined);
    cudaHostAlloc((void **)&c, n * sizeof(float), cudaHostAllocMapped | cudaHostAllocPortable);
    for (int i = 0; i < n; i++) { a[i] = i; b[i] = 0.5f * i; }
    float *da, *db, *dc;
    cudaHostGetDevicePointer((void **)&da, a, 0);
    cudaHostGetDevicePointer((void **)&db, b, 0);
    cudaHostGetDevicePointer((void **)&dc, c, 0);
    vectorAdd<<<n / 256, 256>>>(da, db, dc, n);
    cudaDeviceSynchronize();
    int bad = 0;
    for (int i = 0; i < n; i++)
        if (c[i] != 1.5f * i) bad++;
    printf("c[1]=%.1f c[100]=%.1f c[n-1]=%.1f errors=%d\n", c[1], c[100], c[n - 1], bad);
    printf("bad flags: %s\n", cudaGetErrorName(cudaHostGetDevicePointer((void **)&da, a, 1)));
    cudaFreeHost(a);
    cudaFreeHost(b);
    cudaFreeHost(c);
    return 0;
}
