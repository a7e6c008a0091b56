// Runtime API argument errors: each call's result, then cudaGetLastError and a sync.
#include <stdio.h>
#include <stdlib.h>
__global__ void k(int *p) { p[threadIdx.x] = 1; }
#define R(name, call) do { cudaError_t e = (call); cudaError_t l = cudaGetLastError(); \
  printf("%-26s %s \"%s\" | last %s\n", name, cudaGetErrorName(e), cudaGetErrorString(e), cudaGetErrorName(l)); } while (0)
int main() {
    int *d, *d2; int buf[100];
    R("cudaMalloc ok", cudaMalloc(&d, 16));
    R("cudaMalloc(NULL,16)", cudaMalloc(NULL, 16));
    R("memcpy D2H past end", cudaMemcpy(buf, d, 400, cudaMemcpyDeviceToHost));
    R("memcpy H2D past end", cudaMemcpy(d, buf, 400, cudaMemcpyHostToDevice));
    R("memcpy D2H from NULL", cudaMemcpy(buf, NULL, 4, cudaMemcpyDeviceToHost));
    R("memcpy H2D to NULL", cudaMemcpy(NULL, buf, 4, cudaMemcpyHostToDevice));
    R("memcpy bad kind 7", cudaMemcpy(buf, d, 4, (cudaMemcpyKind)7));
    R("memcpy D2H wrong dir", cudaMemcpy(d, buf, 4, cudaMemcpyDeviceToHost));
    R("memcpy default", cudaMemcpy(buf, d, 4, cudaMemcpyDefault));
    R("memcpy size 0", cudaMemcpy(buf, d, 0, cudaMemcpyDeviceToHost));
    R("memset past end", cudaMemset(d, 0, 400));
    R("memset NULL", cudaMemset(NULL, 0, 4));
    R("cudaMalloc d2", cudaMalloc(&d2, 16));
    R("cudaFree d2", cudaFree(d2));
    R("cudaFree d2 again", cudaFree(d2));
    R("memcpy from freed", cudaMemcpy(buf, d2, 4, cudaMemcpyDeviceToHost));
    R("cudaFree host ptr", cudaFree(buf));
    R("cudaFree malloc ptr", cudaFree(malloc(16)));
    R("cudaFree NULL", cudaFree(NULL));
    R("cudaFree d+1", cudaFree(d + 1));
    R("cudaSetDevice 5", cudaSetDevice(5));
    R("cudaSetDevice -1", cudaSetDevice(-1));
    int n; R("cudaGetDeviceCount", cudaGetDeviceCount(&n));
    cudaDeviceProp p; R("cudaGetDeviceProperties 9", cudaGetDeviceProperties(&p, 9));
    R("cudaDeviceSynchronize", cudaDeviceSynchronize());
    int *h = (int *)malloc(128);
    k<<<1, 32>>>(h);
    R("launch host ptr", cudaPeekAtLastError());
    R("sync after host ptr", cudaDeviceSynchronize());
    R("sync again", cudaDeviceSynchronize());
    R("cudaMalloc after fault", cudaMalloc(&d2, 16));
    R("memcpy after fault", cudaMemcpy(buf, d, 4, cudaMemcpyDeviceToHost));
    return 0;
}
