// cudaPointerGetAttributes on each kind of memory: device (cudaMalloc), pinned host
// (cudaMallocHost), managed (cudaMallocManaged) and ordinary host memory, which CUDA 11
// and later report as unregistered rather than as an error.
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

const char *typeName(cudaMemoryType t) {
    switch (t) {
    case cudaMemoryTypeUnregistered: return "unregistered";
    case cudaMemoryTypeHost: return "host";
    case cudaMemoryTypeDevice: return "device";
    case cudaMemoryTypeManaged: return "managed";
    }
    return "?";
}

void describe(const char *what, const void *p) {
    cudaPointerAttributes a;
    cudaError_t e = cudaPointerGetAttributes(&a, p);
    printf("%-8s %s type=%s devicePointer=%s hostPointer=%s\n", what, cudaGetErrorName(e), typeName(a.type),
           a.devicePointer == p ? "same" : (a.devicePointer ? "other" : "null"),
           a.hostPointer == p ? "same" : (a.hostPointer ? "other" : "null"));
}

int main() {
    float *d, *pinned, *managed;
    cudaMalloc(&d, 256);
    cudaMallocHost(&pinned, 256);
    cudaMallocManaged(&managed, 256);
    float *plain = (float *)malloc(256);
    describe("device", d);
    describe("pinned", pinned);
    describe("managed", managed);
    cudaPointerAttributes u;
    cudaError_t e = cudaPointerGetAttributes(&u, plain);
    printf("%-8s %s type=%s\n", "malloc", cudaGetErrorName(e), typeName(u.type));
    cudaPointerAttributes a;
    cudaPointerGetAttributes(&a, d + 10);
    printf("interior device pointer: type=%s, device %d\n", typeName(a.type), a.device);
    free(plain);
    cudaFree(d);
    cudaFreeHost(pinned);
    cudaFree(managed);
    return 0;
}
