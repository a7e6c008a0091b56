// Device management as the book's chapter-2/3 programs use it, printing only what every
// GPU of sm_70 and newer reports alike: the count, the device chosen, the limits of a
// block and a warp, the capabilities (mapped host memory, unified addressing, managed
// memory), the profiler calls (accepted) and the errors for a device that does not exist.
#include <cstdio>
#include <cuda_runtime.h>
#include <cuda_profiler_api.h>

int main() {
    int count = 0;
    cudaGetDeviceCount(&count);
    printf("at least one device: %s\n", count >= 1 ? "yes" : "no");
    printf("cudaSetDevice(0): %s\n", cudaGetErrorName(cudaSetDevice(0)));
    int dev = -1;
    cudaGetDevice(&dev);
    printf("current device: %d\n", dev);
    int v;
    cudaDeviceGetAttribute(&v, cudaDevAttrWarpSize, 0); printf("warp size: %d\n", v);
    cudaDeviceGetAttribute(&v, cudaDevAttrMaxThreadsPerBlock, 0); printf("max threads per block: %d\n", v);
    cudaDeviceGetAttribute(&v, cudaDevAttrMaxBlockDimZ, 0); printf("max block z: %d\n", v);
    cudaDeviceGetAttribute(&v, cudaDevAttrMaxGridDimY, 0); printf("max grid y: %d\n", v);
    cudaDeviceGetAttribute(&v, cudaDevAttrMaxSharedMemoryPerBlock, 0); printf("shared memory per block: %d\n", v);
    cudaDeviceGetAttribute(&v, cudaDevAttrTotalConstantMemory, 0); printf("constant memory: %d\n", v);
    cudaDeviceGetAttribute(&v, cudaDevAttrCanMapHostMemory, 0); printf("can map host memory: %d\n", v);
    cudaDeviceGetAttribute(&v, cudaDevAttrUnifiedAddressing, 0); printf("unified addressing: %d\n", v);
    cudaDeviceGetAttribute(&v, cudaDevAttrManagedMemory, 0); printf("managed memory: %d\n", v);
    cudaDeviceGetAttribute(&v, cudaDevAttrComputeCapabilityMajor, 0); printf("major >= 7: %s\n", v >= 7 ? "yes" : "no");
    cudaDeviceProp prop;
    cudaGetDeviceProperties(&prop, 0);
    printf("properties agree: %s\n", prop.warpSize == 32 && prop.maxThreadsDim[0] == 1024 && prop.maxThreadsDim[2] == 64 ? "yes" : "no");
    printf("cudaProfilerStart: %s\n", cudaGetErrorName(cudaProfilerStart()));
    printf("cudaProfilerStop: %s\n", cudaGetErrorName(cudaProfilerStop()));
    printf("cudaSetDevice(count): %s\n", cudaGetErrorName(cudaSetDevice(count)));
    printf("last error: %s\n", cudaGetErrorName(cudaGetLastError()));
    printf("after reading it: %s\n", cudaGetErrorName(cudaGetLastError()));
    printf("attribute of device count: %s\n", cudaGetErrorName(cudaDeviceGetAttribute(&v, cudaDevAttrWarpSize, count)));
    return 0;
}
