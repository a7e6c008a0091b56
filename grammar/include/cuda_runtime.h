/* minicuda's <cuda_runtime.h>: the CUDA built-ins and runtime API minicuda runs.
   Included implicitly into every .cu file, as nvcc does; like nvcc's it brings in
   <stdlib.h>, <string.h>, <math.h> and <time.h>, but not <stdio.h>. */
#ifndef __MINICUDA_CUDA_RUNTIME_H
#define __MINICUDA_CUDA_RUNTIME_H
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <math.h>
#include <time.h>

/* ---- vector types and launch geometry ---- */
struct uint3 { unsigned int x, y, z; };
struct dim3 { unsigned int x, y, z; };
struct int2 { int x, y; };
struct int3 { int x, y, z; };
struct int4 { int x, y, z, w; };
struct uint2 { unsigned int x, y; };
struct uint4 { unsigned int x, y, z, w; };
struct float2 { float x, y; };
struct float3 { float x, y, z; };
struct float4 { float x, y, z, w; };
struct double2 { double x, y; };

extern const __device__ uint3 threadIdx;
extern const __device__ uint3 blockIdx;
extern const __device__ dim3 blockDim;
extern const __device__ dim3 gridDim;
extern const __device__ int warpSize;

/* ---- runtime API types ---- */
typedef int cudaError_t;
typedef int cudaMemcpyKind;
struct CUevent_st;
typedef struct CUevent_st *cudaEvent_t;
struct CUstream_st;
typedef struct CUstream_st *cudaStream_t;

#define cudaSuccess 0
#define cudaErrorInvalidValue 1
#define cudaErrorMemoryAllocation 2
#define cudaErrorInitializationError 3
#define cudaErrorLaunchFailure 4
#define cudaErrorInvalidConfiguration 9
#define cudaErrorInvalidDevice 101
#define cudaErrorInvalidDevicePointer 17
#define cudaErrorInvalidMemcpyDirection 21
#define cudaErrorNoDevice 100
#define cudaErrorIllegalAddress 700
#define cudaErrorLaunchTimeout 702
#define cudaErrorLaunchOutOfResources 701
#define cudaErrorNotReady 600

#define cudaErrorUnsupportedLimit 215
#define cudaErrorInvalidDeviceFunction 98
#define cudaErrorInvalidResourceHandle 400

typedef int cudaFuncAttribute;
#define cudaFuncAttributeMaxDynamicSharedMemorySize 8
#define cudaFuncAttributePreferredSharedMemoryCarveout 9

typedef int cudaLimit;
#define cudaLimitStackSize 0
#define cudaLimitPrintfFifoSize 1
#define cudaLimitMallocHeapSize 2

#define cudaMemcpyHostToHost 0
#define cudaMemcpyHostToDevice 1
#define cudaMemcpyDeviceToHost 2
#define cudaMemcpyDeviceToDevice 3
#define cudaMemcpyDefault 4

struct cudaDeviceProp {
  char name[256];
  size_t totalGlobalMem;
  size_t sharedMemPerBlock;
  int regsPerBlock;
  int warpSize;
  size_t memPitch;
  int maxThreadsPerBlock;
  int maxThreadsDim[3];
  int maxGridSize[3];
  int clockRate;
  size_t totalConstMem;
  int major;
  int minor;
  size_t textureAlignment;
  int deviceOverlap;
  int multiProcessorCount;
  int kernelExecTimeoutEnabled;
  int integrated;
  int canMapHostMemory;
  int computeMode;
  int concurrentKernels;
  int ECCEnabled;
  int pciBusID;
  int pciDeviceID;
  int asyncEngineCount;
  int unifiedAddressing;
  int memoryClockRate;
  int memoryBusWidth;
  int l2CacheSize;
  int maxThreadsPerMultiProcessor;
  int sharedMemPerMultiprocessor;
  int regsPerMultiprocessor;
  size_t sharedMemPerBlockOptin;
  int maxBlocksPerMultiProcessor;
};

/* ---- runtime API (host) ---- */
__host__ cudaError_t cudaMalloc(void **devPtr, size_t size);
__host__ cudaError_t cudaMallocHost(void **ptr, size_t size);
__host__ cudaError_t cudaFree(void *devPtr);
__host__ cudaError_t cudaFreeHost(void *ptr);
__host__ cudaError_t cudaMemcpy(void *dst, const void *src, size_t count, cudaMemcpyKind kind);
__host__ cudaError_t cudaMemset(void *devPtr, int value, size_t count);
__host__ cudaError_t cudaMemcpyToSymbol(const void *symbol, const void *src, size_t count, size_t offset = 0, cudaMemcpyKind kind = cudaMemcpyHostToDevice);
__host__ cudaError_t cudaMemcpyFromSymbol(void *dst, const void *symbol, size_t count, size_t offset = 0, cudaMemcpyKind kind = cudaMemcpyDeviceToHost);
__host__ cudaError_t cudaDeviceSynchronize(void);
__host__ cudaError_t cudaDeviceReset(void);
__host__ cudaError_t cudaDeviceSetLimit(cudaLimit limit, size_t value);
__host__ cudaError_t cudaDeviceGetLimit(size_t *pValue, cudaLimit limit);
__host__ cudaError_t cudaSetDevice(int device);
__host__ cudaError_t cudaGetDevice(int *device);
__host__ cudaError_t cudaGetDeviceCount(int *count);
__host__ cudaError_t cudaGetDeviceProperties(struct cudaDeviceProp *prop, int device);
__host__ cudaError_t cudaFuncSetAttribute(const void *func, cudaFuncAttribute attr, int value);
__host__ cudaError_t cudaGetLastError(void);
__host__ cudaError_t cudaPeekAtLastError(void);
__host__ const char *cudaGetErrorString(cudaError_t error);
__host__ const char *cudaGetErrorName(cudaError_t error);
__host__ cudaError_t cudaEventCreate(cudaEvent_t *event);
__host__ cudaError_t cudaEventRecord(cudaEvent_t event, cudaStream_t stream = 0);
__host__ cudaError_t cudaEventSynchronize(cudaEvent_t event);
__host__ cudaError_t cudaEventElapsedTime(float *ms, cudaEvent_t start, cudaEvent_t end);
__host__ cudaError_t cudaEventDestroy(cudaEvent_t event);

/* ---- synchronisation, warp intrinsics, atomics (device) ---- */
__device__ void __syncthreads(void);
__device__ int __syncthreads_count(int predicate);
__device__ int __syncthreads_and(int predicate);
__device__ int __syncthreads_or(int predicate);
__device__ void __syncwarp(unsigned int mask = 0xffffffff);
__device__ void __threadfence(void);
__device__ void __threadfence_block(void);
__device__ void __threadfence_system(void);
__device__ void __trap(void);
__device__ unsigned int __activemask(void);
__device__ unsigned int __ballot_sync(unsigned int mask, int predicate);
__device__ int __any_sync(unsigned int mask, int predicate);
__device__ int __all_sync(unsigned int mask, int predicate);
__device__ int __shfl_sync(unsigned int mask, int var, int srcLane, int width = 32);
__device__ unsigned int __shfl_sync(unsigned int mask, unsigned int var, int srcLane, int width = 32);
__device__ float __shfl_sync(unsigned int mask, float var, int srcLane, int width = 32);
__device__ double __shfl_sync(unsigned int mask, double var, int srcLane, int width = 32);
__device__ long long __shfl_sync(unsigned int mask, long long var, int srcLane, int width = 32);
__device__ int __shfl_up_sync(unsigned int mask, int var, unsigned int delta, int width = 32);
__device__ unsigned int __shfl_up_sync(unsigned int mask, unsigned int var, unsigned int delta, int width = 32);
__device__ float __shfl_up_sync(unsigned int mask, float var, unsigned int delta, int width = 32);
__device__ double __shfl_up_sync(unsigned int mask, double var, unsigned int delta, int width = 32);
__device__ long long __shfl_up_sync(unsigned int mask, long long var, unsigned int delta, int width = 32);
__device__ int __shfl_down_sync(unsigned int mask, int var, unsigned int delta, int width = 32);
__device__ unsigned int __shfl_down_sync(unsigned int mask, unsigned int var, unsigned int delta, int width = 32);
__device__ float __shfl_down_sync(unsigned int mask, float var, unsigned int delta, int width = 32);
__device__ double __shfl_down_sync(unsigned int mask, double var, unsigned int delta, int width = 32);
__device__ long long __shfl_down_sync(unsigned int mask, long long var, unsigned int delta, int width = 32);
__device__ int __shfl_xor_sync(unsigned int mask, int var, int laneMask, int width = 32);
__device__ unsigned int __shfl_xor_sync(unsigned int mask, unsigned int var, int laneMask, int width = 32);
__device__ float __shfl_xor_sync(unsigned int mask, float var, int laneMask, int width = 32);
__device__ double __shfl_xor_sync(unsigned int mask, double var, int laneMask, int width = 32);
__device__ long long __shfl_xor_sync(unsigned int mask, long long var, int laneMask, int width = 32);

__device__ int atomicAdd(int *address, int val);
__device__ unsigned int atomicAdd(unsigned int *address, unsigned int val);
__device__ unsigned long long atomicAdd(unsigned long long *address, unsigned long long val);
__device__ float atomicAdd(float *address, float val);
__device__ double atomicAdd(double *address, double val);
__device__ int atomicSub(int *address, int val);
__device__ unsigned int atomicSub(unsigned int *address, unsigned int val);
__device__ int atomicExch(int *address, int val);
__device__ unsigned int atomicExch(unsigned int *address, unsigned int val);
__device__ unsigned long long atomicExch(unsigned long long *address, unsigned long long val);
__device__ float atomicExch(float *address, float val);
__device__ int atomicMin(int *address, int val);
__device__ unsigned int atomicMin(unsigned int *address, unsigned int val);
__device__ long long atomicMin(long long *address, long long val);
__device__ unsigned long long atomicMin(unsigned long long *address, unsigned long long val);
__device__ int atomicMax(int *address, int val);
__device__ unsigned int atomicMax(unsigned int *address, unsigned int val);
__device__ long long atomicMax(long long *address, long long val);
__device__ unsigned long long atomicMax(unsigned long long *address, unsigned long long val);
__device__ unsigned int atomicInc(unsigned int *address, unsigned int val);
__device__ unsigned int atomicDec(unsigned int *address, unsigned int val);
__device__ int atomicCAS(int *address, int compare, int val);
__device__ unsigned int atomicCAS(unsigned int *address, unsigned int compare, unsigned int val);
__device__ unsigned long long atomicCAS(unsigned long long *address, unsigned long long compare, unsigned long long val);
__device__ unsigned short atomicCAS(unsigned short *address, unsigned short compare, unsigned short val);
__device__ int atomicAnd(int *address, int val);
__device__ unsigned int atomicAnd(unsigned int *address, unsigned int val);
__device__ unsigned long long atomicAnd(unsigned long long *address, unsigned long long val);
__device__ int atomicOr(int *address, int val);
__device__ unsigned int atomicOr(unsigned int *address, unsigned int val);
__device__ unsigned long long atomicOr(unsigned long long *address, unsigned long long val);
__device__ int atomicXor(int *address, int val);
__device__ unsigned int atomicXor(unsigned int *address, unsigned int val);
__device__ unsigned long long atomicXor(unsigned long long *address, unsigned long long val);

/* ---- integer intrinsics ---- */
__device__ int __popc(unsigned int x);
__device__ int __popcll(unsigned long long x);
__device__ int __clz(int x);
__device__ int __clzll(long long x);
__device__ int __ffs(int x);
__device__ int __ffsll(long long x);
__device__ unsigned int __brev(unsigned int x);
__device__ int __mul24(int x, int y);
__device__ unsigned int __byte_perm(unsigned int x, unsigned int y, unsigned int s);
__device__ int __mulhi(int x, int y);
__device__ unsigned int __umulhi(unsigned int x, unsigned int y);
__device__ long long clock64(void);
__device__ unsigned int __laneid(void);

__host__ __device__ int min(int a, int b);
__host__ __device__ unsigned int min(unsigned int a, unsigned int b);
__host__ __device__ long long min(long long a, long long b);
__host__ __device__ unsigned long long min(unsigned long long a, unsigned long long b);
__host__ __device__ float min(float a, float b);
__host__ __device__ double min(double a, double b);
__host__ __device__ int max(int a, int b);
__host__ __device__ unsigned int max(unsigned int a, unsigned int b);
__host__ __device__ long long max(long long a, long long b);
__host__ __device__ unsigned long long max(unsigned long long a, unsigned long long b);
__host__ __device__ float max(float a, float b);
__host__ __device__ double max(double a, double b);

#endif
