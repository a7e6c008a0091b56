// A trimmed deviceQuery: the device count and the properties every recent GPU shares
// (the device's name differs by machine).
#include <cstdio>
#include <cuda_runtime.h>

int main()
{
    int deviceCount = 0;
    cudaError_t error_id = cudaGetDeviceCount(&deviceCount);
    if (error_id != cudaSuccess) {
        printf("cudaGetDeviceCount returned %d\n-> %s\n", (int)error_id, cudaGetErrorString(error_id));
        return 1;
    }
    printf("Detected %s CUDA Capable device(s)\n", deviceCount > 0 ? "at least one" : "no");
    cudaSetDevice(0);
    cudaDeviceProp deviceProp;
    cudaGetDeviceProperties(&deviceProp, 0);
    printf("\nDevice 0: \"%s\"\n", deviceProp.name);
    printf("  Warp size:                                     %d\n", deviceProp.warpSize);
    printf("  Maximum number of threads per block:           %d\n", deviceProp.maxThreadsPerBlock);
    printf("  Max dimension size of a thread block (x,y,z): (%d, %d, %d)\n", deviceProp.maxThreadsDim[0],
           deviceProp.maxThreadsDim[1], deviceProp.maxThreadsDim[2]);
    printf("  Max dimension size of a grid size    (x,y,z): (%d, %d, %d)\n", deviceProp.maxGridSize[0],
           deviceProp.maxGridSize[1], deviceProp.maxGridSize[2]);
    printf("  Total amount of shared memory per block:       %zu bytes\n", deviceProp.sharedMemPerBlock);
    printf("  Total number of registers available per block: %d\n", deviceProp.regsPerBlock);
    int driverVersion = 0, runtimeVersion = 0;
    cudaRuntimeGetVersion(&runtimeVersion);
    printf("  Runtime version at least 12.0: %s\n", runtimeVersion >= 12000 ? "yes" : "no");
    cudaDriverGetVersion(&driverVersion);
    printf("  Driver supports the runtime: %s\n", driverVersion >= runtimeVersion ? "yes" : "no");
    printf("Result = PASS\n");
    return 0;
}
