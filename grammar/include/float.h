/* minicuda's <float.h>: IEEE binary32 and binary64, as on x86-64. */
#ifndef __MINICUDA_FLOAT_H
#define __MINICUDA_FLOAT_H
#define FLT_RADIX 2
#define FLT_MANT_DIG 24
#define DBL_MANT_DIG 53
#define FLT_DIG 6
#define DBL_DIG 15
#define FLT_MAX 3.402823466e+38f
#define FLT_MIN 1.175494351e-38f
#define FLT_EPSILON 1.192092896e-07f
#define DBL_MAX 1.7976931348623157e+308
#define DBL_MIN 2.2250738585072014e-308
#define DBL_EPSILON 2.2204460492503131e-16
#define FLT_MAX_EXP 128
#define DBL_MAX_EXP 1024
#define FLT_MIN_EXP (-125)
#define DBL_MIN_EXP (-1021)
#endif
