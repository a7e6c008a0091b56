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
#include <vector_types.h>
#include <vector_functions.h>

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
#define cudaErrorLaunchMaxDepthExceeded 65
#define cudaErrorSyncDepthExceeded 68
#define cudaErrorLaunchPendingCountExceeded 69

#define cudaErrorUnsupportedLimit 215
#define cudaErrorInvalidDeviceFunction 98
#define cudaErrorInvalidResourceHandle 400
#define cudaErrorHostMemoryAlreadyRegistered 712
#define cudaErrorHostMemoryNotRegistered 713
#define cudaErrorInvalidPitchValue 12
#define cudaErrorInvalidSymbol 13
#define cudaErrorCooperativeLaunchTooLarge 720

/* streams: every operation runs when it is issued, so each stream is idle between calls */
#define cudaStreamDefault 0x00
#define cudaStreamNonBlocking 0x01
#define cudaStreamLegacy ((cudaStream_t)0x1)
#define cudaStreamPerThread ((cudaStream_t)0x2)
#define cudaEventDefault 0x00
#define cudaEventBlockingSync 0x01
#define cudaEventDisableTiming 0x02
#define cudaEventInterprocess 0x04
/* pinned, mapped and managed memory */
#define cudaHostAllocDefault 0x00
#define cudaHostAllocPortable 0x01
#define cudaHostAllocMapped 0x02
#define cudaHostAllocWriteCombined 0x04
#define cudaHostRegisterDefault 0x00
#define cudaHostRegisterPortable 0x01
#define cudaHostRegisterMapped 0x02
#define cudaHostRegisterIoMemory 0x04
#define cudaHostRegisterReadOnly 0x08
#define cudaMemAttachGlobal 0x01
#define cudaMemAttachHost 0x02
#define cudaMemAttachSingle 0x04
#define cudaCpuDeviceId ((int)-1)
#define cudaInvalidDeviceId ((int)-2)
typedef int cudaMemoryAdvise;
#define cudaMemAdviseSetReadMostly 1
#define cudaMemAdviseUnsetReadMostly 2
#define cudaMemAdviseSetPreferredLocation 3
#define cudaMemAdviseUnsetPreferredLocation 4
#define cudaMemAdviseSetAccessedBy 5
#define cudaMemAdviseUnsetAccessedBy 6
typedef int cudaMemLocationType;
#define cudaMemLocationTypeInvalid 0
#define cudaMemLocationTypeDevice 1
#define cudaMemLocationTypeHost 2
struct cudaMemLocation { cudaMemLocationType type; int id; };
/* cudaSetDeviceFlags's flags */
#define cudaDeviceScheduleAuto 0x00
#define cudaDeviceScheduleSpin 0x01
#define cudaDeviceScheduleYield 0x02
#define cudaDeviceScheduleBlockingSync 0x04
#define cudaDeviceBlockingSync 0x04
#define cudaDeviceMapHost 0x08
#define cudaDeviceLmemResizeToMax 0x10
/* what cudaPointerGetAttributes tells of a pointer */
typedef int cudaMemoryType;
#define cudaMemoryTypeUnregistered 0
#define cudaMemoryTypeHost 1
#define cudaMemoryTypeDevice 2
#define cudaMemoryTypeManaged 3
struct cudaPointerAttributes {
  cudaMemoryType type;
  int device;
  void *devicePointer;
  void *hostPointer;
  long __reserved[8];
};
/* host callbacks on a stream: cudaLaunchHostFunc's and cudaStreamAddCallback's */
#define CUDART_CB
typedef void (*cudaHostFn_t)(void *);
typedef void (*cudaStreamCallback_t)(struct CUstream_st *, int, void *);   /* (stream, status, userData) */
/* what cudaFuncGetAttributes reports of a kernel (CUDA 13's fields, in its order) */
struct cudaFuncAttributes {
  size_t sharedSizeBytes;
  size_t constSizeBytes;
  size_t localSizeBytes;
  int maxThreadsPerBlock;
  int numRegs;
  int ptxVersion;
  int binaryVersion;
  int cacheModeCA;
  int maxDynamicSharedSizeBytes;
  int preferredShmemCarveout;
  int clusterDimMustBeSet;
  int requiredClusterWidth;
  int requiredClusterHeight;
  int requiredClusterDepth;
  int clusterSchedulingPolicyPreference;
  int nonPortableClusterSizeAllowed;
  int reserved[16];
};
#define cudaOccupancyDefault 0x00
#define cudaOccupancyDisableCachingOverride 0x01

/* cudaDeviceGetAttribute's attributes (CUDA's cudaDeviceAttr values) */
typedef int cudaDeviceAttr;
#define cudaDevAttrMaxThreadsPerBlock 1
#define cudaDevAttrMaxBlockDimX 2
#define cudaDevAttrMaxBlockDimY 3
#define cudaDevAttrMaxBlockDimZ 4
#define cudaDevAttrMaxGridDimX 5
#define cudaDevAttrMaxGridDimY 6
#define cudaDevAttrMaxGridDimZ 7
#define cudaDevAttrMaxSharedMemoryPerBlock 8
#define cudaDevAttrTotalConstantMemory 9
#define cudaDevAttrWarpSize 10
#define cudaDevAttrMaxPitch 11
#define cudaDevAttrMaxRegistersPerBlock 12
#define cudaDevAttrClockRate 13
#define cudaDevAttrTextureAlignment 14
#define cudaDevAttrGpuOverlap 15
#define cudaDevAttrMultiProcessorCount 16
#define cudaDevAttrKernelExecTimeout 17
#define cudaDevAttrIntegrated 18
#define cudaDevAttrCanMapHostMemory 19
#define cudaDevAttrComputeMode 20
#define cudaDevAttrConcurrentKernels 31
#define cudaDevAttrEccEnabled 32
#define cudaDevAttrMemoryClockRate 36
#define cudaDevAttrGlobalMemoryBusWidth 37
#define cudaDevAttrL2CacheSize 38
#define cudaDevAttrMaxThreadsPerMultiProcessor 39
#define cudaDevAttrAsyncEngineCount 40
#define cudaDevAttrUnifiedAddressing 41
#define cudaDevAttrComputeCapabilityMajor 75
#define cudaDevAttrComputeCapabilityMinor 76
#define cudaDevAttrMaxSharedMemoryPerMultiprocessor 81
#define cudaDevAttrMaxRegistersPerMultiprocessor 82
#define cudaDevAttrManagedMemory 83
#define cudaDevAttrConcurrentManagedAccess 89
#define cudaDevAttrCooperativeLaunch 95
#define cudaDevAttrMaxSharedMemoryPerBlockOptin 97
#define cudaDevAttrMaxBlocksPerMultiprocessor 106

typedef int cudaFuncAttribute;
#define cudaFuncAttributeMaxDynamicSharedMemorySize 8
#define cudaFuncAttributePreferredSharedMemoryCarveout 9

typedef int cudaLimit;
#define cudaLimitStackSize 0
#define cudaLimitPrintfFifoSize 1
#define cudaLimitMallocHeapSize 2
#define cudaLimitDevRuntimeSyncDepth 3
#define cudaLimitDevRuntimePendingLaunchCount 4

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
__host__ cudaError_t cudaMalloc(void **__devPtr, size_t __size);
__host__ cudaError_t cudaMallocHost(void **__ptr, size_t __size);
__host__ cudaError_t cudaFree(void *__devPtr);
__host__ cudaError_t cudaFreeHost(void *__ptr);
__host__ cudaError_t cudaHostAlloc(void **__pHost, size_t __size, unsigned int __flags);
__host__ cudaError_t cudaHostGetDevicePointer(void **__pDevice, void *__pHost, unsigned int __flags);
__host__ cudaError_t cudaHostRegister(void *__ptr, size_t __size, unsigned int __flags);
__host__ cudaError_t cudaHostUnregister(void *__ptr);
__host__ cudaError_t cudaMallocManaged(void **__devPtr, size_t __size, unsigned int __flags = cudaMemAttachGlobal);
__host__ cudaError_t cudaMemPrefetchAsync(const void *__devPtr, size_t __count, int __dstDevice, cudaStream_t __stream = 0);
__host__ cudaError_t cudaMemAdvise(const void *__devPtr, size_t __count, cudaMemoryAdvise __advice, int __device);
/* CUDA 13's forms: the destination as a cudaMemLocation (CUDA 12's int device forms above stay accepted) */
__host__ cudaError_t __cudaMemPrefetchAsyncTo(const void *__devPtr, size_t __count, int __type, int __id, unsigned int __flags, cudaStream_t __stream);
__host__ cudaError_t __cudaMemAdviseFor(const void *__devPtr, size_t __count, cudaMemoryAdvise __advice, int __type, int __id);
inline __host__ cudaError_t cudaMemPrefetchAsync(const void *__devPtr, size_t __count, struct cudaMemLocation __location, unsigned int __flags, cudaStream_t __stream = 0) {
  return __cudaMemPrefetchAsyncTo(__devPtr, __count, __location.type, __location.id, __flags, __stream);
}
inline __host__ cudaError_t cudaMemAdvise(const void *__devPtr, size_t __count, cudaMemoryAdvise __advice, struct cudaMemLocation __location) {
  return __cudaMemAdviseFor(__devPtr, __count, __advice, __location.type, __location.id);
}
__host__ cudaError_t cudaMemcpyAsync(void *__dst, const void *__src, size_t __count, cudaMemcpyKind __kind, cudaStream_t __stream = 0);
__host__ cudaError_t cudaMemsetAsync(void *__devPtr, int __value, size_t __count, cudaStream_t __stream = 0);
__host__ cudaError_t cudaStreamCreate(cudaStream_t *__pStream);
__host__ cudaError_t cudaStreamCreateWithFlags(cudaStream_t *__pStream, unsigned int __flags);
__host__ cudaError_t cudaStreamDestroy(cudaStream_t __stream);
__host__ cudaError_t cudaStreamSynchronize(cudaStream_t __stream);
__host__ cudaError_t cudaStreamQuery(cudaStream_t __stream);
__host__ cudaError_t cudaStreamWaitEvent(cudaStream_t __stream, cudaEvent_t __event, unsigned int __flags = 0);
__host__ cudaError_t cudaMemcpy(void *__dst, const void *__src, size_t __count, cudaMemcpyKind __kind);
__host__ cudaError_t cudaMemset(void *__devPtr, int __value, size_t __count);
__host__ cudaError_t cudaMemcpyToSymbol(const void *__symbol, const void *__src, size_t __count, size_t __offset = 0, cudaMemcpyKind __kind = cudaMemcpyHostToDevice);
__host__ cudaError_t cudaMemcpyFromSymbol(void *__dst, const void *__symbol, size_t __count, size_t __offset = 0, cudaMemcpyKind __kind = cudaMemcpyDeviceToHost);
__host__ __device__ cudaError_t cudaDeviceSynchronize(void);
__host__ cudaError_t cudaDeviceReset(void);
__host__ cudaError_t cudaDeviceSetLimit(cudaLimit __limit, size_t __value);
__host__ cudaError_t cudaDeviceGetLimit(size_t *__pValue, cudaLimit __limit);
__host__ cudaError_t cudaSetDevice(int __device);
__host__ cudaError_t cudaGetDevice(int *__device);
__host__ cudaError_t cudaGetDeviceCount(int *__count);
__host__ cudaError_t cudaDeviceGetAttribute(int *__value, cudaDeviceAttr __attr, int __device);
__host__ cudaError_t cudaRuntimeGetVersion(int *__runtimeVersion);
__host__ cudaError_t cudaDriverGetVersion(int *__driverVersion);
__host__ cudaError_t cudaGetDeviceProperties(struct cudaDeviceProp *__prop, int __device);
__host__ cudaError_t cudaFuncSetAttribute(const void *__func, cudaFuncAttribute __attr, int __value);
__host__ __device__ cudaError_t cudaGetLastError(void);
__host__ __device__ cudaError_t cudaPeekAtLastError(void);
__host__ const char *cudaGetErrorString(cudaError_t __error);
__host__ const char *cudaGetErrorName(cudaError_t __error);
__host__ cudaError_t cudaEventCreate(cudaEvent_t *__event);
__host__ cudaError_t cudaEventCreateWithFlags(cudaEvent_t *__event, unsigned int __flags);
__host__ cudaError_t cudaEventQuery(cudaEvent_t __event);
__host__ cudaError_t cudaEventRecord(cudaEvent_t __event, cudaStream_t __stream = 0);
__host__ cudaError_t cudaEventSynchronize(cudaEvent_t __event);
__host__ cudaError_t cudaEventElapsedTime(float *__ms, cudaEvent_t __start, cudaEvent_t __end);
__host__ cudaError_t cudaEventDestroy(cudaEvent_t __event);
/* streams with priorities, host callbacks */
__host__ cudaError_t cudaStreamCreateWithPriority(cudaStream_t *__pStream, unsigned int __flags, int __priority);
__host__ cudaError_t cudaDeviceGetStreamPriorityRange(int *__leastPriority, int *__greatestPriority);
__host__ cudaError_t cudaStreamGetPriority(cudaStream_t __stream, int *__priority);
__host__ cudaError_t cudaStreamGetFlags(cudaStream_t __stream, unsigned int *__flags);
__host__ cudaError_t cudaLaunchHostFunc(cudaStream_t __stream, cudaHostFn_t __fn, void *__userData);
__host__ cudaError_t cudaStreamAddCallback(cudaStream_t __stream, cudaStreamCallback_t __callback, void *__userData, unsigned int __flags);
/* pitched (2D) memory */
__host__ cudaError_t cudaMallocPitch(void **__devPtr, size_t *__pitch, size_t __width, size_t __height);
__host__ cudaError_t cudaMemcpy2D(void *__dst, size_t __dpitch, const void *__src, size_t __spitch, size_t __width, size_t __height, cudaMemcpyKind __kind);
__host__ cudaError_t cudaMemcpy2DAsync(void *__dst, size_t __dpitch, const void *__src, size_t __spitch, size_t __width, size_t __height, cudaMemcpyKind __kind, cudaStream_t __stream = 0);
__host__ cudaError_t cudaMemset2D(void *__devPtr, size_t __pitch, int __value, size_t __width, size_t __height);
__host__ cudaError_t cudaMemset2DAsync(void *__devPtr, size_t __pitch, int __value, size_t __width, size_t __height, cudaStream_t __stream = 0);
/* symbols, pointers, device flags and memory */
__host__ cudaError_t cudaGetSymbolAddress(void **__devPtr, const void *__symbol);
__host__ cudaError_t cudaGetSymbolSize(size_t *__size, const void *__symbol);
__host__ cudaError_t cudaPointerGetAttributes(struct cudaPointerAttributes *__attributes, const void *__ptr);
__host__ cudaError_t cudaSetDeviceFlags(unsigned int __flags);
__host__ cudaError_t cudaGetDeviceFlags(unsigned int *__flags);
__host__ cudaError_t cudaMemGetInfo(size_t *__free, size_t *__total);
/* a kernel's attributes and occupancy, from the registers and shared memory the compiler reports */
__host__ cudaError_t cudaFuncGetAttributes(struct cudaFuncAttributes *__attr, const void *__func);
__host__ cudaError_t cudaOccupancyMaxActiveBlocksPerMultiprocessor(int *__numBlocks, const void *__func, int __blockSize, size_t __dynamicSMemSize);
__host__ cudaError_t cudaOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(int *__numBlocks, const void *__func, int __blockSize, size_t __dynamicSMemSize, unsigned int __flags);
__host__ cudaError_t cudaOccupancyMaxPotentialBlockSize(int *__minGridSize, int *__blockSize, const void *__func, size_t __dynamicSMemSize = 0, int __blockSizeLimit = 0);
/* a cooperative launch (<cooperative_groups.h>'s grid sync): every block resident at once;
   <cooperative_groups.h> defines cudaLaunchCooperativeKernel over it */
__host__ cudaError_t __cudaLaunchCooperativeKernel(const void *__func, unsigned int __gx, unsigned int __gy,
                                                   unsigned int __gz, unsigned int __bx, unsigned int __by,
                                                   unsigned int __bz, void **__args, size_t __sharedMem,
                                                   cudaStream_t __stream);

/* ---- synchronisation, warp intrinsics, atomics (device) ---- */
__device__ void __syncthreads(void);
__device__ int __syncthreads_count(int __predicate);
__device__ int __syncthreads_and(int __predicate);
__device__ int __syncthreads_or(int __predicate);
__device__ void __syncwarp(unsigned int __mask = 0xffffffff);
__device__ void __minicuda_grid_sync(void);   /* <cooperative_groups.h>'s grid barrier (GRIDSYNC) */
__device__ int __minicuda_grid_is_valid(void);   /* its grid_group::is_valid(): a cooperative launch */
__device__ void __threadfence(void);
__device__ void __threadfence_block(void);
__device__ void __threadfence_system(void);
__device__ void __trap(void);
__device__ unsigned int __activemask(void);
__device__ unsigned int __ballot_sync(unsigned int __mask, int __predicate);
__device__ int __any_sync(unsigned int __mask, int __predicate);
__device__ int __all_sync(unsigned int __mask, int __predicate);
/* MATCH.ANY / MATCH.ALL (sm_70 and newer): the lanes of mask holding this thread's value */
__device__ unsigned int __match_any_sync(unsigned int __mask, int __value);
__device__ unsigned int __match_any_sync(unsigned int __mask, unsigned int __value);
__device__ unsigned int __match_any_sync(unsigned int __mask, long __value);
__device__ unsigned int __match_any_sync(unsigned int __mask, unsigned long __value);
__device__ unsigned int __match_any_sync(unsigned int __mask, long long __value);
__device__ unsigned int __match_any_sync(unsigned int __mask, unsigned long long __value);
__device__ unsigned int __match_any_sync(unsigned int __mask, float __value);
__device__ unsigned int __match_any_sync(unsigned int __mask, double __value);
__device__ unsigned int __match_all_sync(unsigned int __mask, int __value, int *__pred);
__device__ unsigned int __match_all_sync(unsigned int __mask, unsigned int __value, int *__pred);
__device__ unsigned int __match_all_sync(unsigned int __mask, long __value, int *__pred);
__device__ unsigned int __match_all_sync(unsigned int __mask, unsigned long __value, int *__pred);
__device__ unsigned int __match_all_sync(unsigned int __mask, long long __value, int *__pred);
__device__ unsigned int __match_all_sync(unsigned int __mask, unsigned long long __value, int *__pred);
__device__ unsigned int __match_all_sync(unsigned int __mask, float __value, int *__pred);
__device__ unsigned int __match_all_sync(unsigned int __mask, double __value, int *__pred);
__device__ int __shfl_sync(unsigned int __mask, int __var, int __srcLane, int __width = 32);
__device__ unsigned int __shfl_sync(unsigned int __mask, unsigned int __var, int __srcLane, int __width = 32);
__device__ float __shfl_sync(unsigned int __mask, float __var, int __srcLane, int __width = 32);
__device__ double __shfl_sync(unsigned int __mask, double __var, int __srcLane, int __width = 32);
__device__ long long __shfl_sync(unsigned int __mask, long long __var, int __srcLane, int __width = 32);
__device__ int __shfl_up_sync(unsigned int __mask, int __var, unsigned int __delta, int __width = 32);
__device__ unsigned int __shfl_up_sync(unsigned int __mask, unsigned int __var, unsigned int __delta, int __width = 32);
__device__ float __shfl_up_sync(unsigned int __mask, float __var, unsigned int __delta, int __width = 32);
__device__ double __shfl_up_sync(unsigned int __mask, double __var, unsigned int __delta, int __width = 32);
__device__ long long __shfl_up_sync(unsigned int __mask, long long __var, unsigned int __delta, int __width = 32);
__device__ int __shfl_down_sync(unsigned int __mask, int __var, unsigned int __delta, int __width = 32);
__device__ unsigned int __shfl_down_sync(unsigned int __mask, unsigned int __var, unsigned int __delta, int __width = 32);
__device__ float __shfl_down_sync(unsigned int __mask, float __var, unsigned int __delta, int __width = 32);
__device__ double __shfl_down_sync(unsigned int __mask, double __var, unsigned int __delta, int __width = 32);
__device__ long long __shfl_down_sync(unsigned int __mask, long long __var, unsigned int __delta, int __width = 32);
__device__ int __shfl_xor_sync(unsigned int __mask, int __var, int __laneMask, int __width = 32);
__device__ unsigned int __shfl_xor_sync(unsigned int __mask, unsigned int __var, int __laneMask, int __width = 32);
__device__ float __shfl_xor_sync(unsigned int __mask, float __var, int __laneMask, int __width = 32);
__device__ double __shfl_xor_sync(unsigned int __mask, double __var, int __laneMask, int __width = 32);
__device__ long long __shfl_xor_sync(unsigned int __mask, long long __var, int __laneMask, int __width = 32);

__device__ int atomicAdd(int *__address, int __val);
__device__ unsigned int atomicAdd(unsigned int *__address, unsigned int __val);
__device__ unsigned long long atomicAdd(unsigned long long *__address, unsigned long long __val);
__device__ float atomicAdd(float *__address, float __val);
__device__ double atomicAdd(double *__address, double __val);
__device__ int atomicSub(int *__address, int __val);
__device__ unsigned int atomicSub(unsigned int *__address, unsigned int __val);
__device__ int atomicExch(int *__address, int __val);
__device__ unsigned int atomicExch(unsigned int *__address, unsigned int __val);
__device__ unsigned long long atomicExch(unsigned long long *__address, unsigned long long __val);
__device__ float atomicExch(float *__address, float __val);
__device__ int atomicMin(int *__address, int __val);
__device__ unsigned int atomicMin(unsigned int *__address, unsigned int __val);
__device__ long long atomicMin(long long *__address, long long __val);
__device__ unsigned long long atomicMin(unsigned long long *__address, unsigned long long __val);
__device__ int atomicMax(int *__address, int __val);
__device__ unsigned int atomicMax(unsigned int *__address, unsigned int __val);
__device__ long long atomicMax(long long *__address, long long __val);
__device__ unsigned long long atomicMax(unsigned long long *__address, unsigned long long __val);
__device__ unsigned int atomicInc(unsigned int *__address, unsigned int __val);
__device__ unsigned int atomicDec(unsigned int *__address, unsigned int __val);
__device__ int atomicCAS(int *__address, int __compare, int __val);
__device__ unsigned int atomicCAS(unsigned int *__address, unsigned int __compare, unsigned int __val);
__device__ unsigned long long atomicCAS(unsigned long long *__address, unsigned long long __compare, unsigned long long __val);
__device__ unsigned short atomicCAS(unsigned short *__address, unsigned short __compare, unsigned short __val);
__device__ int atomicAnd(int *__address, int __val);
__device__ unsigned int atomicAnd(unsigned int *__address, unsigned int __val);
__device__ unsigned long long atomicAnd(unsigned long long *__address, unsigned long long __val);
__device__ int atomicOr(int *__address, int __val);
__device__ unsigned int atomicOr(unsigned int *__address, unsigned int __val);
__device__ unsigned long long atomicOr(unsigned long long *__address, unsigned long long __val);
__device__ int atomicXor(int *__address, int __val);
__device__ unsigned int atomicXor(unsigned int *__address, unsigned int __val);
__device__ unsigned long long atomicXor(unsigned long long *__address, unsigned long long __val);

/* ---- integer intrinsics ---- */
__device__ int __popc(unsigned int __x);
__device__ int __popcll(unsigned long long __x);
__device__ int __clz(int __x);
__device__ int __clzll(long long __x);
__device__ int __ffs(int __x);
__device__ int __ffsll(long long __x);
__device__ unsigned int __brev(unsigned int __x);
__device__ unsigned long long __brevll(unsigned long long __x);
__device__ unsigned int __funnelshift_l(unsigned int __lo, unsigned int __hi, unsigned int __shift);
__device__ unsigned int __funnelshift_r(unsigned int __lo, unsigned int __hi, unsigned int __shift);
__device__ unsigned int __funnelshift_lc(unsigned int __lo, unsigned int __hi, unsigned int __shift);
__device__ unsigned int __funnelshift_rc(unsigned int __lo, unsigned int __hi, unsigned int __shift);
__device__ int __mul24(int __x, int __y);
__device__ unsigned int __byte_perm(unsigned int __x, unsigned int __y, unsigned int __s);
__device__ int __mulhi(int __x, int __y);
__device__ unsigned int __umulhi(unsigned int __x, unsigned int __y);
__device__ long long clock64(void);
__device__ unsigned int __laneid(void);

/* ---- __ldg: a load through the read-only data cache (sm_35 and newer) ---- */
__device__ char __ldg(const char *__ptr);
__device__ signed char __ldg(const signed char *__ptr);
__device__ short __ldg(const short *__ptr);
__device__ int __ldg(const int *__ptr);
__device__ long __ldg(const long *__ptr);
__device__ long long __ldg(const long long *__ptr);
__device__ unsigned char __ldg(const unsigned char *__ptr);
__device__ unsigned short __ldg(const unsigned short *__ptr);
__device__ unsigned int __ldg(const unsigned int *__ptr);
__device__ unsigned long __ldg(const unsigned long *__ptr);
__device__ unsigned long long __ldg(const unsigned long long *__ptr);
__device__ float __ldg(const float *__ptr);
__device__ double __ldg(const double *__ptr);
/* and of the vector types sm_32_intrinsics.h lists: each member through the same cache */
__device__ char2 __ldg(const char2 *__ptr);
__device__ char4 __ldg(const char4 *__ptr);
__device__ short2 __ldg(const short2 *__ptr);
__device__ short4 __ldg(const short4 *__ptr);
__device__ int2 __ldg(const int2 *__ptr);
__device__ int4 __ldg(const int4 *__ptr);
__device__ longlong2 __ldg(const longlong2 *__ptr);
__device__ uchar2 __ldg(const uchar2 *__ptr);
__device__ uchar4 __ldg(const uchar4 *__ptr);
__device__ ushort2 __ldg(const ushort2 *__ptr);
__device__ ushort4 __ldg(const ushort4 *__ptr);
__device__ uint2 __ldg(const uint2 *__ptr);
__device__ uint4 __ldg(const uint4 *__ptr);
__device__ ulonglong2 __ldg(const ulonglong2 *__ptr);
__device__ float2 __ldg(const float2 *__ptr);
__device__ float4 __ldg(const float4 *__ptr);
__device__ double2 __ldg(const double2 *__ptr);
/* ---- the warp intrinsics without a mask: sm_60 and older (CUDA 9 deprecated them; sm_70 and
   newer have none: compiler.py reports their calls as nvcc does) ---- */
__device__ int __shfl(int __var, int __srcLane, int __width = 32);
__device__ int __shfl_up(int __var, unsigned int __delta, int __width = 32);
__device__ int __shfl_down(int __var, unsigned int __delta, int __width = 32);
__device__ int __shfl_xor(int __var, int __laneMask, int __width = 32);
__device__ unsigned int __shfl(unsigned int __var, int __srcLane, int __width = 32);
__device__ unsigned int __shfl_up(unsigned int __var, unsigned int __delta, int __width = 32);
__device__ unsigned int __shfl_down(unsigned int __var, unsigned int __delta, int __width = 32);
__device__ unsigned int __shfl_xor(unsigned int __var, int __laneMask, int __width = 32);
__device__ float __shfl(float __var, int __srcLane, int __width = 32);
__device__ float __shfl_up(float __var, unsigned int __delta, int __width = 32);
__device__ float __shfl_down(float __var, unsigned int __delta, int __width = 32);
__device__ float __shfl_xor(float __var, int __laneMask, int __width = 32);
__device__ double __shfl(double __var, int __srcLane, int __width = 32);
__device__ double __shfl_up(double __var, unsigned int __delta, int __width = 32);
__device__ double __shfl_down(double __var, unsigned int __delta, int __width = 32);
__device__ double __shfl_xor(double __var, int __laneMask, int __width = 32);
__device__ long long __shfl(long long __var, int __srcLane, int __width = 32);
__device__ long long __shfl_up(long long __var, unsigned int __delta, int __width = 32);
__device__ long long __shfl_down(long long __var, unsigned int __delta, int __width = 32);
__device__ long long __shfl_xor(long long __var, int __laneMask, int __width = 32);
__device__ unsigned long long __shfl(unsigned long long __var, int __srcLane, int __width = 32);
__device__ unsigned long long __shfl_up(unsigned long long __var, unsigned int __delta, int __width = 32);
__device__ unsigned long long __shfl_down(unsigned long long __var, unsigned int __delta, int __width = 32);
__device__ unsigned long long __shfl_xor(unsigned long long __var, int __laneMask, int __width = 32);
__device__ unsigned int __ballot(int __predicate);
__device__ int __any(int __predicate);
__device__ int __all(int __predicate);

/* ---- bit casts: the same bits seen as another type ---- */
__device__ int __float_as_int(float __x);
__device__ unsigned int __float_as_uint(float __x);
__device__ float __int_as_float(int __x);
__device__ float __uint_as_float(unsigned int __x);
__device__ long long __double_as_longlong(double __x);
__device__ double __longlong_as_double(long long __x);

/* min and max with a user's function-like macros of those names set aside */
#pragma push_macro("min")
#pragma push_macro("max")
#undef min
#undef max
__host__ __device__ int min(int __a, int __b);
__host__ __device__ unsigned int min(unsigned int __a, unsigned int __b);
__host__ __device__ long long min(long long __a, long long __b);
__host__ __device__ unsigned long long min(unsigned long long __a, unsigned long long __b);
__host__ __device__ float min(float __a, float __b);
__host__ __device__ double min(double __a, double __b);
__host__ __device__ int max(int __a, int __b);
__host__ __device__ unsigned int max(unsigned int __a, unsigned int __b);
__host__ __device__ long long max(long long __a, long long __b);
__host__ __device__ unsigned long long max(unsigned long long __a, unsigned long long __b);
__host__ __device__ float max(float __a, float __b);
__host__ __device__ double max(double __a, double __b);
#pragma pop_macro("min")
#pragma pop_macro("max")

#endif
