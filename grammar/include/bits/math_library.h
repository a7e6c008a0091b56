/* minicuda's <math.h> library functions built from the others (erfinv, frexp, remquo, sinpi, ...):
   their definitions, which the preprocessor appends to a unit that calls one of
   LIBRARY_FUNCTIONS (grammar/preprocess.py), so other programs do not parse them.  Both
   engines run this code, so host and device agree.  ldexp, scalbn, frexp, modf, ilogb,
   remquo and the f forms computed in double are exact; lrint & co. of a value outside the
   integer's range are undefined, as in C. */
#ifndef __MINICUDA_MATH_LIBRARY_H
#define __MINICUDA_MATH_LIBRARY_H
#define __MC_INT_MIN (-2147483647 - 1)
#define __MC_NAN (__builtin_nanf(""))
inline __host__ __device__ int ilogb(double __x) {
  if (__x == 0.0 || isnan(__x)) return __MC_INT_MIN;
  if (isinf(__x)) return 2147483647;
  return (int)logb(__x);
}
inline __host__ __device__ int ilogbf(float __x) { return ilogb((double)__x); }
inline __host__ __device__ double scalbn(double __x, int __n) {
  /* two steps at most each way, then one multiplication by an exact power of two: one rounding */
  if (__n > 1023) {
    __x *= exp2(1023.0); __n -= 1023;
    if (__n > 1023) { __x *= exp2(1023.0); __n -= 1023; if (__n > 1023) __n = 1023; }
  } else if (__n < -1022) {
    __x *= exp2(-969.0); __n += 969;
    if (__n < -1022) { __x *= exp2(-969.0); __n += 969; if (__n < -1022) __n = -1022; }
  }
  return __x * exp2((double)__n);
}
inline __host__ __device__ float scalbnf(float __x, int __n) {
  /* in double: exact for |n| <= 400, the float rounding is the only one */
  int __m = __n > 400 ? 400 : (__n < -400 ? -400 : __n);
  return (float)((double)__x * exp2((double)__m));
}
inline __host__ __device__ double ldexp(double __x, int __n) { return scalbn(__x, __n); }
inline __host__ __device__ float ldexpf(float __x, int __n) { return scalbnf(__x, __n); }
inline __host__ __device__ double frexp(double __x, int *__e) {
  if (__x == 0.0 || isnan(__x) || isinf(__x)) { *__e = 0; return __x + __x; }
  int __k = ilogb(__x) + 1;
  *__e = __k;
  return scalbn(__x, -__k);
}
inline __host__ __device__ float frexpf(float __x, int *__e) { return (float)frexp((double)__x, __e); }
inline __host__ __device__ double modf(double __x, double *__i) {
  double __t = trunc(__x);
  *__i = __t;
  return isinf(__x) ? copysign(0.0, __x) : copysign(__x - __t, __x);
}
inline __host__ __device__ float modff(float __x, float *__i) {
  float __t = truncf(__x);
  *__i = __t;
  return isinf(__x) ? copysignf(0.0f, __x) : copysignf(__x - __t, __x);
}
inline __host__ __device__ double __mc_remquo(double __x, double __y, int *__q, double __big, double __tiny) {
  /* glibc's algorithm (its quotient is 0 to 8 in size), for doubles (big 2^1021, tiny
     2^-1021) and floats (2^125, 2^-125, every step exact in double) */
  if (__y == 0.0 || isnan(__y) || isnan(__x) || isinf(__x)) { *__q = 0; return __MC_NAN; }
  int __neg = signbit(__x) != signbit(__y), __k = 0;
  double __ax = fabs(__x), __ay = fabs(__y);
  if (__ax == __ay) { *__q = __neg ? -1 : 1; return copysign(0.0, __x); }
  if (__ay < __big) __ax = fmod(__ax, 8.0 * __ay);
  if (__ay < 2.0 * __big && __ax >= 4.0 * __ay) { __ax -= 4.0 * __ay; __k += 4; }
  if (__ay < 4.0 * __big && __ax >= 2.0 * __ay) { __ax -= 2.0 * __ay; __k += 2; }
  if (__ay < __tiny) {
    if (__ax + __ax > __ay) { __ax -= __ay; ++__k; if (__ax + __ax >= __ay) { __ax -= __ay; ++__k; } }
  } else {
    double __h = 0.5 * __ay;
    if (__ax > __h) { __ax -= __ay; ++__k; if (__ax >= __h) { __ax -= __ay; ++__k; } }
  }
  *__q = __neg ? -__k : __k;
  return signbit(__x) ? -__ax : __ax;
}
inline __host__ __device__ double remquo(double __x, double __y, int *__q) {
  return __mc_remquo(__x, __y, __q, 2.247116418577895e307, 4.450147717014403e-308);
}
inline __host__ __device__ float remquof(float __x, float __y, int *__q) {
  return (float)__mc_remquo((double)__x, (double)__y, __q, 4.253529586511731e37, 2.350988701644575e-38);
}
inline __host__ __device__ void sincos(double __x, double *__s, double *__c) { *__s = sin(__x); *__c = cos(__x); }
inline __host__ __device__ void sincosf(float __x, float *__s, float *__c) { *__s = sinf(__x); *__c = cosf(__x); }
inline __host__ __device__ double __mc_pi_turn(double __x, int __cosine) {
  /* sin(pi x) (cos with __cosine): x mod 2 and its nearest quarter turn are exact */
  double __r = fmod(__x, 2.0);
  double __n = rint(__r * 2.0);
  double __a = (__r - __n * 0.5) * 3.14159265358979323846;
  int __q = ((int)__n + 4 + __cosine) & 3;
  double __v = __q == 0 ? sin(__a) : (__q == 1 ? cos(__a) : (__q == 2 ? -sin(__a) : -cos(__a)));
  if (__v == 0.0) return __cosine ? 0.0 : copysign(0.0, __x);
  return __v;
}
inline __host__ __device__ double sinpi(double __x) { return isinf(__x) ? __x - __x : __mc_pi_turn(__x, 0); }
inline __host__ __device__ double cospi(double __x) { return isinf(__x) ? __x - __x : __mc_pi_turn(__x, 1); }
inline __host__ __device__ float sinpif(float __x) { return (float)sinpi((double)__x); }
inline __host__ __device__ float cospif(float __x) { return (float)cospi((double)__x); }
inline __host__ __device__ void sincospi(double __x, double *__s, double *__c) { *__s = sinpi(__x); *__c = cospi(__x); }
inline __host__ __device__ void sincospif(float __x, float *__s, float *__c) { *__s = sinpif(__x); *__c = cospif(__x); }
inline __host__ __device__ double normcdf(double __x) { return 0.5 * erfc(__x * -0.70710678118654752440); }
inline __host__ __device__ float normcdff(float __x) { return (float)normcdf((double)__x); }
inline __host__ __device__ double rcbrt(double __x) { return 1.0 / cbrt(__x); }
inline __host__ __device__ float rcbrtf(float __x) { return (float)(1.0 / cbrt((double)__x)); }
inline __host__ __device__ double __mc_erfinv_start(double __w) {
  /* Giles' approximation of erfinv(x) / x, w = -log((1 - x)(1 + x)) */
  double __p;
  if (__w < 6.25) {
    __w -= 3.125;
    __p = -3.6444120640178196996e-21; __p = -1.685059138182016589e-19 + __p * __w;
    __p = 1.2858480715256400167e-18 + __p * __w; __p = 1.115787767802518096e-17 + __p * __w;
    __p = -1.333171662854620906e-16 + __p * __w; __p = 2.0972767875968561637e-17 + __p * __w;
    __p = 6.6376381343583238325e-15 + __p * __w; __p = -4.0545662729752068639e-14 + __p * __w;
    __p = -8.1519341976054721522e-14 + __p * __w; __p = 2.6335093153082322977e-12 + __p * __w;
    __p = -1.2975133253453532498e-11 + __p * __w; __p = -5.4154120542946279317e-11 + __p * __w;
    __p = 1.051212273321532285e-9 + __p * __w; __p = -4.1126339803469836976e-9 + __p * __w;
    __p = -2.9070369957882005086e-8 + __p * __w; __p = 4.2347877827932403518e-7 + __p * __w;
    __p = -1.3654692000834678645e-6 + __p * __w; __p = -1.3882523362786468719e-5 + __p * __w;
    __p = 0.0001867342080340571352 + __p * __w; __p = -0.00074070253416626697512 + __p * __w;
    __p = -0.0060336708714301490533 + __p * __w; __p = 0.24015818242558961693 + __p * __w;
    __p = 1.6536545626831027356 + __p * __w;
  } else if (__w < 16.0) {
    __w = sqrt(__w) - 3.25;
    __p = 2.2137376921775787049e-9; __p = 9.0756561938885390979e-8 + __p * __w;
    __p = -2.7517406297064545428e-7 + __p * __w; __p = 1.8239629214389227755e-8 + __p * __w;
    __p = 1.5027403968909827627e-6 + __p * __w; __p = -4.013867526981545969e-6 + __p * __w;
    __p = 2.9234449089955446044e-6 + __p * __w; __p = 1.2475304481671778723e-5 + __p * __w;
    __p = -4.7318229009055733981e-5 + __p * __w; __p = 6.8284851459573175448e-5 + __p * __w;
    __p = 2.4031110387097893999e-5 + __p * __w; __p = -0.0003550375203628474796 + __p * __w;
    __p = 0.00095328937973738049703 + __p * __w; __p = -0.0016882755560235047313 + __p * __w;
    __p = 0.0024914420961078508066 + __p * __w; __p = -0.0037512085075692412107 + __p * __w;
    __p = 0.005370914553590063617 + __p * __w; __p = 1.0052589676941592334 + __p * __w;
    __p = 3.0838856104922207635 + __p * __w;
  } else {
    __w = sqrt(__w) - 5.0;
    __p = -2.7109920616438573243e-11; __p = -2.5556418169965252055e-10 + __p * __w;
    __p = 1.5076572693500548083e-9 + __p * __w; __p = -3.7894654401267369937e-9 + __p * __w;
    __p = 7.6157012080783393804e-9 + __p * __w; __p = -1.4960026627149240478e-8 + __p * __w;
    __p = 2.9147953450901080826e-8 + __p * __w; __p = -6.7711997758452339498e-8 + __p * __w;
    __p = 2.2900482228026654717e-7 + __p * __w; __p = -9.9298272942317002539e-7 + __p * __w;
    __p = 4.5260625972231537039e-6 + __p * __w; __p = -1.9681778105531670567e-5 + __p * __w;
    __p = 7.5995277030017761139e-5 + __p * __w; __p = -0.00021503011930044477347 + __p * __w;
    __p = -0.00013871931833623122026 + __p * __w; __p = 1.0103004648645343977 + __p * __w;
    __p = 4.8499064014085844221 + __p * __w;
  }
  return __p;
}
inline __host__ __device__ double erfinv(double __y) {
  if (isnan(__y) || fabs(__y) > 1.0) return __MC_NAN;
  if (fabs(__y) == 1.0) return __y / 0.0;
  if (__y == 0.0) return __y;
  double __x = __y * __mc_erfinv_start(-log((1.0 - __y) * (1.0 + __y)));
  for (int __i = 0; __i < 2; __i++) {   /* Halley's steps on erf(x) = y */
    double __f = erf(__x) - __y;
    double __d = 1.1283791670955125739 * exp(-__x * __x);
    double __step = __f / (__d * (1.0 + __x * __f / __d));
    if (isfinite(__step)) __x -= __step;   /* exp(-x^2) underflows near erfc's smallest */
  }
  return __x;
}
inline __host__ __device__ double erfcinv(double __y) {
  if (isnan(__y) || __y < 0.0 || __y > 2.0) return __MC_NAN;
  if (__y == 0.0) return 1.0 / 0.0;
  if (__y == 2.0) return -1.0 / 0.0;
  if (__y >= 0.0625 && __y <= 1.9375) return erfinv(1.0 - __y);
  double __s = __y < 1.0 ? 1.0 : -1.0, __t = __y < 1.0 ? __y : 2.0 - __y;   /* erfc(x) = t, x > 0 */
  double __w = -log(__t * (2.0 - __t)), __x;
  if (__w < 37.5) {
    __x = __mc_erfinv_start(__w) * (1.0 - __t);
  } else {   /* past Giles' range: erfc(x) ~ exp(-x^2) / (x sqrt(pi)), solved by iteration */
    __x = sqrt(__w);
    for (int __i = 0; __i < 4; __i++) __x = sqrt(__w - log(__x * 1.7724538509055160273));
  }
  for (int __i = 0; __i < 3; __i++) {   /* Halley's steps on erfc(x) = t, relative to t */
    double __f = erfc(__x) - __t;
    double __d = -1.1283791670955125739 * exp(-__x * __x);
    double __step = __f / (__d * (1.0 + __x * __f / __d));
    if (isfinite(__step)) __x -= __step;   /* exp(-x^2) underflows near erfc's smallest */
  }
  return __s * __x;
}
inline __host__ __device__ float erfinvf(float __y) { return (float)erfinv((double)__y); }
inline __host__ __device__ float erfcinvf(float __y) { return (float)erfcinv((double)__y); }
inline __host__ __device__ long lrint(double __x) { return (long)rint(__x); }
inline __host__ __device__ long lrintf(float __x) { return (long)rintf(__x); }
inline __host__ __device__ long long llrint(double __x) { return (long long)rint(__x); }
inline __host__ __device__ long long llrintf(float __x) { return (long long)rintf(__x); }
inline __host__ __device__ long lround(double __x) { return (long)round(__x); }
inline __host__ __device__ long lroundf(float __x) { return (long)roundf(__x); }
inline __host__ __device__ long long llround(double __x) { return (long long)round(__x); }
inline __host__ __device__ long long llroundf(float __x) { return (long long)roundf(__x); }
#ifdef __cplusplus
/* the float overloads (math.h declares them) */
inline __host__ __device__ int ilogb(float __x) { return ilogbf(__x); }
inline __host__ __device__ float scalbn(float __x, int __n) { return scalbnf(__x, __n); }
inline __host__ __device__ float ldexp(float __x, int __n) { return ldexpf(__x, __n); }
inline __host__ __device__ float frexp(float __x, int *__e) { return frexpf(__x, __e); }
inline __host__ __device__ float modf(float __x, float *__i) { return modff(__x, __i); }
inline __host__ __device__ float remquo(float __x, float __y, int *__q) { return remquof(__x, __y, __q); }
inline __host__ __device__ void sincos(float __x, float *__s, float *__c) { sincosf(__x, __s, __c); }
inline __host__ __device__ float sinpi(float __x) { return sinpif(__x); }
inline __host__ __device__ float cospi(float __x) { return cospif(__x); }
inline __host__ __device__ void sincospi(float __x, float *__s, float *__c) { sincospif(__x, __s, __c); }
inline __host__ __device__ float normcdf(float __x) { return normcdff(__x); }
inline __host__ __device__ float rcbrt(float __x) { return rcbrtf(__x); }
inline __host__ __device__ float erfinv(float __x) { return erfinvf(__x); }
inline __host__ __device__ float erfcinv(float __x) { return erfcinvf(__x); }
inline __host__ __device__ long lrint(float __x) { return lrintf(__x); }
inline __host__ __device__ long long llrint(float __x) { return llrintf(__x); }
inline __host__ __device__ long lround(float __x) { return lroundf(__x); }
inline __host__ __device__ long long llround(float __x) { return llroundf(__x); }
#endif
#if defined(__cplusplus) && defined(__MINICUDA_CMATH)
/* <cmath>'s std:: names for them, after their definitions */
namespace std {
using ::ilogb; using ::scalbn; using ::ldexp; using ::frexp; using ::modf; using ::remquo; using ::lrint;
using ::llrint; using ::lround; using ::llround; using ::ilogbf; using ::scalbnf; using ::ldexpf;
using ::frexpf; using ::modff; using ::remquof; using ::lrintf; using ::llrintf; using ::lroundf; using ::llroundf;
}
#endif
#undef __MC_INT_MIN
#undef __MC_NAN
#endif
