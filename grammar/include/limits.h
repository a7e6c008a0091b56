/* minicuda's <limits.h> */
#ifndef __MINICUDA_LIMITS_H
#define __MINICUDA_LIMITS_H
#define CHAR_BIT 8
#define INT_MAX 2147483647
#define INT_MIN (-INT_MAX - 1)
#define UINT_MAX 4294967295u
#define LONG_MAX 9223372036854775807l
#define LONG_MIN (-LONG_MAX - 1)
#define LLONG_MAX 9223372036854775807ll
#define SHRT_MAX 32767
#define FLT_MAX 3.402823466e+38f
#endif
