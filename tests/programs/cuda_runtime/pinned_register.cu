// Page-locking memory that malloc returned (cudaHostRegister with cudaHostRegisterMapped),
// copying through it asynchronously, a kernel using its mapped device pointer, then
// unregistering it; registering it twice and unregistering memory never registered are
// CUDA's errors.  Kernel: x[i] = 3 * x[i] - 1 on x[i] = i.
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

__global__ void affine(int *x, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) x[i] = 3 * x[i] - 1;
}

int main() {
    const int n = 4096;
    int *h = (int *)malloc(n * sizeof(int));
    for (int i = 0; i < n; i++) h[i] = i;
    printf("register: %s\n", cudaGetErrorName(cudaHostRegister(h, n * sizeof(int), cudaHostRegisterMapped)));
    printf("again: %s\n", cudaGetErrorName(cudaHostRegister(h, n * sizeof(int), cudaHostRegisterMapped)));
    cudaGetLastError();
    int *mapped;
    cudaHostGetDevicePointer((void **)&mapped, h, 0);
    affine<<<n / 128, 128>>>(mapped, n);
    cudaDeviceSynchronize();
    printf("through the mapping: h[0]=%d h[1]=%d h[n-1]=%d\n", h[0], h[1], h[n - 1]);
    int *d;
    cudaMalloc(&d, n * sizeof(int));
    cudaStream_t s;
    cudaStreamCreate(&s);
    cudaMemcpyAsync(d, h, n * sizeof(int), cudaMemcpyHostToDevice, s);
    affine<<<n / 128, 128, 0, s>>>(d, n);
    cudaMemcpyAsync(h, d, n * sizeof(int), cudaMemcpyDeviceToHost, s);
    cudaStreamSynchronize(s);
    printf("through copies: h[0]=%d h[1]=%d h[n-1]=%d\n", h[0], h[1], h[n - 1]);
    printf("unregister: %s\n", cudaGetErrorName(cudaHostUnregister(h)));
    printf("unregister again: %s\n", cudaGetErrorName(cudaHostUnregister(h)));
    cudaGetLastError();
    cudaStreamDestroy(s);
    cudaFree(d);
    free(h);
    return 0;
}
