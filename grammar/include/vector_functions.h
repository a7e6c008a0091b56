/* minicuda's <vector_functions.h>: make_char1 .. make_double4, each building its vector
   type from its members (minicuda/builtins.py: the make_vector shape).  Included by
   <cuda_runtime.h>. */
#ifndef __MINICUDA_VECTOR_FUNCTIONS_H
#define __MINICUDA_VECTOR_FUNCTIONS_H
#include <vector_types.h>

__host__ __device__ char1 make_char1(signed char __x);
__host__ __device__ char2 make_char2(signed char __x, signed char __y);
__host__ __device__ char3 make_char3(signed char __x, signed char __y, signed char __z);
__host__ __device__ char4 make_char4(signed char __x, signed char __y, signed char __z, signed char __w);
__host__ __device__ uchar1 make_uchar1(unsigned char __x);
__host__ __device__ uchar2 make_uchar2(unsigned char __x, unsigned char __y);
__host__ __device__ uchar3 make_uchar3(unsigned char __x, unsigned char __y, unsigned char __z);
__host__ __device__ uchar4 make_uchar4(unsigned char __x, unsigned char __y, unsigned char __z, unsigned char __w);
__host__ __device__ short1 make_short1(short __x);
__host__ __device__ short2 make_short2(short __x, short __y);
__host__ __device__ short3 make_short3(short __x, short __y, short __z);
__host__ __device__ short4 make_short4(short __x, short __y, short __z, short __w);
__host__ __device__ ushort1 make_ushort1(unsigned short __x);
__host__ __device__ ushort2 make_ushort2(unsigned short __x, unsigned short __y);
__host__ __device__ ushort3 make_ushort3(unsigned short __x, unsigned short __y, unsigned short __z);
__host__ __device__ ushort4 make_ushort4(unsigned short __x, unsigned short __y, unsigned short __z, unsigned short __w);
__host__ __device__ int1 make_int1(int __x);
__host__ __device__ int2 make_int2(int __x, int __y);
__host__ __device__ int3 make_int3(int __x, int __y, int __z);
__host__ __device__ int4 make_int4(int __x, int __y, int __z, int __w);
__host__ __device__ uint1 make_uint1(unsigned int __x);
__host__ __device__ uint2 make_uint2(unsigned int __x, unsigned int __y);
__host__ __device__ uint3 make_uint3(unsigned int __x, unsigned int __y, unsigned int __z);
__host__ __device__ uint4 make_uint4(unsigned int __x, unsigned int __y, unsigned int __z, unsigned int __w);
__host__ __device__ long1 make_long1(long int __x);
__host__ __device__ long2 make_long2(long int __x, long int __y);
__host__ __device__ long3 make_long3(long int __x, long int __y, long int __z);
__host__ __device__ long4 make_long4(long int __x, long int __y, long int __z, long int __w);
__host__ __device__ ulong1 make_ulong1(unsigned long int __x);
__host__ __device__ ulong2 make_ulong2(unsigned long int __x, unsigned long int __y);
__host__ __device__ ulong3 make_ulong3(unsigned long int __x, unsigned long int __y, unsigned long int __z);
__host__ __device__ ulong4 make_ulong4(unsigned long int __x, unsigned long int __y, unsigned long int __z, unsigned long int __w);
__host__ __device__ longlong1 make_longlong1(long long int __x);
__host__ __device__ longlong2 make_longlong2(long long int __x, long long int __y);
__host__ __device__ longlong3 make_longlong3(long long int __x, long long int __y, long long int __z);
__host__ __device__ longlong4 make_longlong4(long long int __x, long long int __y, long long int __z, long long int __w);
__host__ __device__ ulonglong1 make_ulonglong1(unsigned long long int __x);
__host__ __device__ ulonglong2 make_ulonglong2(unsigned long long int __x, unsigned long long int __y);
__host__ __device__ ulonglong3 make_ulonglong3(unsigned long long int __x, unsigned long long int __y, unsigned long long int __z);
__host__ __device__ ulonglong4 make_ulonglong4(unsigned long long int __x, unsigned long long int __y, unsigned long long int __z, unsigned long long int __w);
__host__ __device__ float1 make_float1(float __x);
__host__ __device__ float2 make_float2(float __x, float __y);
__host__ __device__ float3 make_float3(float __x, float __y, float __z);
__host__ __device__ float4 make_float4(float __x, float __y, float __z, float __w);
__host__ __device__ double1 make_double1(double __x);
__host__ __device__ double2 make_double2(double __x, double __y);
__host__ __device__ double3 make_double3(double __x, double __y, double __z);
__host__ __device__ double4 make_double4(double __x, double __y, double __z, double __w);

#endif
