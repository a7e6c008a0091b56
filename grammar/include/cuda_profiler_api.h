/* minicuda's <cuda_profiler_api.h>: cudaProfilerStart and cudaProfilerStop, accepted (every
   launch is measured; --metrics reports them all). */
#ifndef __MINICUDA_CUDA_PROFILER_API_H
#define __MINICUDA_CUDA_PROFILER_API_H
#include <cuda_runtime.h>

__host__ cudaError_t cudaProfilerStart(void);
__host__ cudaError_t cudaProfilerStop(void);

#endif
