// A helper_cuda.h-style header written for the corpus: checkCudaErrors,
// getLastCudaError and findCudaDevice, in the manner of the SDK samples' helpers.
#pragma once

#include <cuda_runtime.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "helper_string.h"

template <typename T>
void check(T result, char const *const func, const char *const file, int const line)
{
    if (result) {
        fprintf(stderr, "CUDA error at %s:%d code=%d(%s) \"%s\" \n", file, line,
                static_cast<unsigned int>(result), cudaGetErrorName(result), func);
        exit(EXIT_FAILURE);
    }
}

#define checkCudaErrors(val) check((val), #val, __FILE__, __LINE__)

#define getLastCudaError(msg) __getLastCudaError(msg, __FILE__, __LINE__)

inline void __getLastCudaError(const char *errorMessage, const char *file, const int line)
{
    cudaError_t err = cudaGetLastError();
    if (cudaSuccess != err) {
        fprintf(stderr, "%s(%i) : getLastCudaError() CUDA error : %s : (%d) %s.\n", file, line,
                errorMessage, static_cast<int>(err), cudaGetErrorString(err));
        exit(EXIT_FAILURE);
    }
}

inline int findCudaDevice(int argc, const char **argv)
{
    int devID = 0;
    if (checkCmdLineFlag(argc, argv, "device")) {
        devID = getCmdLineArgumentInt(argc, argv, "device");
    }
    int count = 0;
    checkCudaErrors(cudaGetDeviceCount(&count));
    if (devID < 0 || devID >= count) {
        fprintf(stderr, "Invalid device %d (of %d)\n", devID, count);
        exit(EXIT_FAILURE);
    }
    checkCudaErrors(cudaSetDevice(devID));
    cudaDeviceProp props;
    checkCudaErrors(cudaGetDeviceProperties(&props, devID));
    printf("GPU Device %d: \"%s\"\n", devID, props.name);
    return devID;
}
