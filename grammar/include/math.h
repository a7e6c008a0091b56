/* minicuda's <math.h>: single and double precision math, host and device. */
#ifndef __MINICUDA_MATH_H
#define __MINICUDA_MATH_H
#define M_PI 3.14159265358979323846
#define M_E 2.7182818284590452354
#define INFINITY (__builtin_inff())
#define NAN (__builtin_nanf(""))
__host__ __device__ float __builtin_inff(void);
__host__ __device__ float __builtin_nanf(const char *__tag);
#define __MC_MATH1(name) \
  __host__ __device__ double name(double __x); \
  __host__ __device__ float name##f(float __x);
#define __MC_MATH2(name) \
  __host__ __device__ double name(double __x, double __y); \
  __host__ __device__ float name##f(float __x, float __y);
__MC_MATH1(sqrt) __MC_MATH1(cbrt) __MC_MATH1(exp) __MC_MATH1(exp2) __MC_MATH1(expm1)
__MC_MATH1(log) __MC_MATH1(log2) __MC_MATH1(log10) __MC_MATH1(log1p)
__MC_MATH1(sin) __MC_MATH1(cos) __MC_MATH1(tan) __MC_MATH1(asin) __MC_MATH1(acos)
__MC_MATH1(atan) __MC_MATH1(sinh) __MC_MATH1(cosh) __MC_MATH1(tanh)
__MC_MATH1(fabs) __MC_MATH1(floor) __MC_MATH1(ceil) __MC_MATH1(round) __MC_MATH1(trunc)
__MC_MATH1(rint) __MC_MATH1(erf) __MC_MATH1(rsqrt)
__MC_MATH1(erfc) __MC_MATH1(lgamma) __MC_MATH1(tgamma) __MC_MATH1(exp10) __MC_MATH1(asinh)
__MC_MATH1(acosh) __MC_MATH1(atanh) __MC_MATH1(logb) __MC_MATH1(nearbyint)
__MC_MATH2(pow) __MC_MATH2(atan2) __MC_MATH2(fmod) __MC_MATH2(fmin) __MC_MATH2(fmax)
__MC_MATH2(hypot) __MC_MATH2(copysign) __MC_MATH2(fdim) __MC_MATH2(nextafter) __MC_MATH2(remainder)
__host__ __device__ double fma(double __x, double __y, double __z);
__host__ __device__ float fmaf(float __x, float __y, float __z);
#ifdef __cplusplus
/* C++ overloads each function for float in the global namespace too, as CUDA's math_functions.h
   and libstdc++'s <math.h> declare them: sin of a float is a float, in host and device code */
__host__ __device__ float sqrt(float __x);
__host__ __device__ float cbrt(float __x);
__host__ __device__ float exp(float __x);
__host__ __device__ float exp2(float __x);
__host__ __device__ float expm1(float __x);
__host__ __device__ float log(float __x);
__host__ __device__ float log2(float __x);
__host__ __device__ float log10(float __x);
__host__ __device__ float log1p(float __x);
__host__ __device__ float sin(float __x);
__host__ __device__ float cos(float __x);
__host__ __device__ float tan(float __x);
__host__ __device__ float asin(float __x);
__host__ __device__ float acos(float __x);
__host__ __device__ float atan(float __x);
__host__ __device__ float sinh(float __x);
__host__ __device__ float cosh(float __x);
__host__ __device__ float tanh(float __x);
__host__ __device__ float fabs(float __x);
__host__ __device__ float floor(float __x);
__host__ __device__ float ceil(float __x);
__host__ __device__ float round(float __x);
__host__ __device__ float trunc(float __x);
__host__ __device__ float rint(float __x);
__host__ __device__ float erf(float __x);
__host__ __device__ float rsqrt(float __x);
__host__ __device__ float pow(float __x, float __y);
__host__ __device__ float atan2(float __x, float __y);
__host__ __device__ float fmod(float __x, float __y);
__host__ __device__ float fmin(float __x, float __y);
__host__ __device__ float fmax(float __x, float __y);
__host__ __device__ float hypot(float __x, float __y);
__host__ __device__ float copysign(float __x, float __y);
__host__ __device__ float fdim(float __x, float __y);
__host__ __device__ float fma(float __x, float __y, float __z);
#endif
/* isnan & co. of a float test the float itself (the double it widens to gives the same answer) */
__host__ __device__ int isnan(double __x);
__host__ __device__ int isinf(double __x);
__host__ __device__ int isfinite(double __x);
__host__ __device__ int signbit(double __x);
__device__ float __expf(float __x);
__device__ float __logf(float __x);
__device__ float __sinf(float __x);
__device__ float __cosf(float __x);
__device__ float __powf(float __x, float __y);
__device__ float __fdividef(float __x, float __y);
__device__ float __saturatef(float __x);
__device__ float __fmul_rn(float __x, float __y);
__device__ float __fadd_rn(float __x, float __y);
__device__ float __frsqrt_rn(float __x);
__device__ float __exp10f(float __x);
__device__ float __log2f(float __x);
__device__ float __log10f(float __x);
__device__ float __tanf(float __x);
__device__ void __sincosf(float __x, float *__sinptr, float *__cosptr);
__device__ float __fsub_rn(float __x, float __y);
__device__ float __fdiv_rn(float __x, float __y);
__device__ float __fmaf_rn(float __x, float __y, float __z);
__device__ float __fsqrt_rn(float __x);
__device__ float __frcp_rn(float __x);
__device__ double __dadd_rn(double __x, double __y);
__device__ double __dsub_rn(double __x, double __y);
__device__ double __dmul_rn(double __x, double __y);
__device__ double __ddiv_rn(double __x, double __y);
__device__ double __fma_rn(double __x, double __y, double __z);
__device__ float __double2float_rn(double __x);
__device__ int __float2int_rn(float __x);
__device__ int __float2int_rz(float __x);
__device__ int __float2int_ru(float __x);
__device__ int __float2int_rd(float __x);
__device__ unsigned int __float2uint_rn(float __x);
__device__ unsigned int __float2uint_rz(float __x);
__device__ unsigned int __float2uint_ru(float __x);
__device__ unsigned int __float2uint_rd(float __x);
__device__ long long __float2ll_rn(float __x);
__device__ long long __float2ll_rz(float __x);
__device__ long long __float2ll_ru(float __x);
__device__ long long __float2ll_rd(float __x);
__device__ unsigned long long __float2ull_rn(float __x);
__device__ unsigned long long __float2ull_rz(float __x);
__device__ unsigned long long __float2ull_ru(float __x);
__device__ unsigned long long __float2ull_rd(float __x);
__device__ int __double2int_rn(double __x);
__device__ int __double2int_rz(double __x);
__device__ int __double2int_ru(double __x);
__device__ int __double2int_rd(double __x);
__device__ unsigned int __double2uint_rn(double __x);
__device__ unsigned int __double2uint_rz(double __x);
__device__ unsigned int __double2uint_ru(double __x);
__device__ unsigned int __double2uint_rd(double __x);
__device__ long long __double2ll_rn(double __x);
__device__ long long __double2ll_rz(double __x);
__device__ long long __double2ll_ru(double __x);
__device__ long long __double2ll_rd(double __x);
__device__ unsigned long long __double2ull_rn(double __x);
__device__ unsigned long long __double2ull_rz(double __x);
__device__ unsigned long long __double2ull_ru(double __x);
__device__ unsigned long long __double2ull_rd(double __x);
__device__ float __int2float_rn(int __x);
__device__ double __int2double_rn(int __x);
__device__ float __uint2float_rn(unsigned int __x);
__device__ double __uint2double_rn(unsigned int __x);
__device__ float __ll2float_rn(long long __x);
__device__ double __ll2double_rn(long long __x);
__device__ float __ull2float_rn(unsigned long long __x);
__device__ double __ull2double_rn(unsigned long long __x);
/* the library functions built from the ones above: declared here, defined in
   <bits/math_library.h>, which the preprocessor appends to a unit calling one
   (grammar/preprocess.py); `inline` marks them as no builtins */
inline __host__ __device__ int ilogb(double __x);
inline __host__ __device__ int ilogbf(float __x);
inline __host__ __device__ double scalbn(double __x, int __n);
inline __host__ __device__ float scalbnf(float __x, int __n);
inline __host__ __device__ double ldexp(double __x, int __n);
inline __host__ __device__ float ldexpf(float __x, int __n);
inline __host__ __device__ double frexp(double __x, int *__e);
inline __host__ __device__ float frexpf(float __x, int *__e);
inline __host__ __device__ double modf(double __x, double *__i);
inline __host__ __device__ float modff(float __x, float *__i);
inline __host__ __device__ double remquo(double __x, double __y, int *__q);
inline __host__ __device__ float remquof(float __x, float __y, int *__q);
inline __host__ __device__ void sincos(double __x, double *__s, double *__c);
inline __host__ __device__ void sincosf(float __x, float *__s, float *__c);
inline __host__ __device__ double sinpi(double __x);
inline __host__ __device__ double cospi(double __x);
inline __host__ __device__ float sinpif(float __x);
inline __host__ __device__ float cospif(float __x);
inline __host__ __device__ void sincospi(double __x, double *__s, double *__c);
inline __host__ __device__ void sincospif(float __x, float *__s, float *__c);
inline __host__ __device__ double normcdf(double __x);
inline __host__ __device__ float normcdff(float __x);
inline __host__ __device__ double rcbrt(double __x);
inline __host__ __device__ float rcbrtf(float __x);
inline __host__ __device__ double erfinv(double __y);
inline __host__ __device__ double erfcinv(double __y);
inline __host__ __device__ float erfinvf(float __y);
inline __host__ __device__ float erfcinvf(float __y);
inline __host__ __device__ long lrint(double __x);
inline __host__ __device__ long lrintf(float __x);
inline __host__ __device__ long long llrint(double __x);
inline __host__ __device__ long long llrintf(float __x);
inline __host__ __device__ long lround(double __x);
inline __host__ __device__ long lroundf(float __x);
inline __host__ __device__ long long llround(double __x);
inline __host__ __device__ long long llroundf(float __x);
#ifdef __cplusplus
/* their float overloads in the global namespace, as CUDA's math_functions.h declares them */
__host__ __device__ float erfc(float __x);
__host__ __device__ float lgamma(float __x);
__host__ __device__ float tgamma(float __x);
__host__ __device__ float exp10(float __x);
__host__ __device__ float asinh(float __x);
__host__ __device__ float acosh(float __x);
__host__ __device__ float atanh(float __x);
__host__ __device__ float logb(float __x);
__host__ __device__ float nearbyint(float __x);
__host__ __device__ float nextafter(float __x, float __y);
__host__ __device__ float remainder(float __x, float __y);
inline __host__ __device__ int ilogb(float __x);
inline __host__ __device__ float scalbn(float __x, int __n);
inline __host__ __device__ float ldexp(float __x, int __n);
inline __host__ __device__ float frexp(float __x, int *__e);
inline __host__ __device__ float modf(float __x, float *__i);
inline __host__ __device__ float remquo(float __x, float __y, int *__q);
inline __host__ __device__ void sincos(float __x, float *__s, float *__c);
inline __host__ __device__ float sinpi(float __x);
inline __host__ __device__ float cospi(float __x);
inline __host__ __device__ void sincospi(float __x, float *__s, float *__c);
inline __host__ __device__ float normcdf(float __x);
inline __host__ __device__ float rcbrt(float __x);
inline __host__ __device__ float erfinv(float __x);
inline __host__ __device__ float erfcinv(float __x);
inline __host__ __device__ long lrint(float __x);
inline __host__ __device__ long long llrint(float __x);
inline __host__ __device__ long lround(float __x);
inline __host__ __device__ long long llround(float __x);
#endif
#undef __MC_MATH1
#undef __MC_MATH2
#endif
