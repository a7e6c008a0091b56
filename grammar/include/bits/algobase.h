/* minicuda's std::min, std::max and std::swap, which <algorithm>, <utility> and <cmath>
   bring in (as libstdc++'s do), host and device: min and max of two arithmetic values
   are builtins of each arithmetic type (minicuda/builtins.py: min's row), swap a function template.  (min and max
   of a class with operator<, of a comparator or of an initializer_list are not there.) */
#ifndef __MINICUDA_ALGOBASE
#define __MINICUDA_ALGOBASE
#include <bits/iterator_funcs.h>
#pragma push_macro("min")
#pragma push_macro("max")
#undef min
#undef max
/* libstdc++'s min and max are constexpr __host__ functions: device code calls them only
   under --expt-relaxed-constexpr (which defines __CUDACC_RELAXED_CONSTEXPR__); sema
   reports a call of a header's constexpr function from device code as nvcc does */
#ifdef __CUDACC_RELAXED_CONSTEXPR__
#define __MINICUDA_HOST_CONSTEXPR
#else
#define __MINICUDA_HOST_CONSTEXPR constexpr
#endif
namespace std {
__MINICUDA_HOST_CONSTEXPR __host__ __device__ int min(int __a, int __b);
__MINICUDA_HOST_CONSTEXPR __host__ __device__ unsigned int min(unsigned int __a, unsigned int __b);
__MINICUDA_HOST_CONSTEXPR __host__ __device__ long min(long __a, long __b);
__MINICUDA_HOST_CONSTEXPR __host__ __device__ unsigned long min(unsigned long __a, unsigned long __b);
__MINICUDA_HOST_CONSTEXPR __host__ __device__ long long min(long long __a, long long __b);
__MINICUDA_HOST_CONSTEXPR __host__ __device__ unsigned long long min(unsigned long long __a, unsigned long long __b);
__MINICUDA_HOST_CONSTEXPR __host__ __device__ float min(float __a, float __b);
__MINICUDA_HOST_CONSTEXPR __host__ __device__ double min(double __a, double __b);
__MINICUDA_HOST_CONSTEXPR __host__ __device__ int max(int __a, int __b);
__MINICUDA_HOST_CONSTEXPR __host__ __device__ unsigned int max(unsigned int __a, unsigned int __b);
__MINICUDA_HOST_CONSTEXPR __host__ __device__ long max(long __a, long __b);
__MINICUDA_HOST_CONSTEXPR __host__ __device__ unsigned long max(unsigned long __a, unsigned long __b);
__MINICUDA_HOST_CONSTEXPR __host__ __device__ long long max(long long __a, long long __b);
__MINICUDA_HOST_CONSTEXPR __host__ __device__ unsigned long long max(unsigned long long __a, unsigned long long __b);
__MINICUDA_HOST_CONSTEXPR __host__ __device__ float max(float __a, float __b);
__MINICUDA_HOST_CONSTEXPR __host__ __device__ double max(double __a, double __b);
template <class _T> __host__ __device__ void swap(_T &__a, _T &__b)
{
    _T __t = __a;
    __a = __b;
    __b = __t;
}
}
#pragma pop_macro("min")
#pragma pop_macro("max")
#endif
