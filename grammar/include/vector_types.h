/* minicuda's <vector_types.h>: CUDA's built-in vector types, char1 .. double4, with CUDA's
   alignment (int2 and float2 8 bytes, int4, float4 and double2 16, ...), and dim3.
   Included by <cuda_runtime.h>. */
#ifndef __MINICUDA_VECTOR_TYPES_H
#define __MINICUDA_VECTOR_TYPES_H

/* CUDA's spelling of a type's alignment, as its host_defines.h defines it; the types below
   say alignas(N), the same alignment, in one pair of brackets fewer */
#define __align__(n) __attribute__((aligned(n)))
#define __builtin_align__(n) __attribute__((aligned(n)))

struct char1 { signed char x; };
struct alignas(2) char2 { signed char x, y; };
struct char3 { signed char x, y, z; };
struct alignas(4) char4 { signed char x, y, z, w; };
struct uchar1 { unsigned char x; };
struct alignas(2) uchar2 { unsigned char x, y; };
struct uchar3 { unsigned char x, y, z; };
struct alignas(4) uchar4 { unsigned char x, y, z, w; };
struct short1 { short x; };
struct alignas(4) short2 { short x, y; };
struct short3 { short x, y, z; };
struct alignas(8) short4 { short x, y, z, w; };
struct ushort1 { unsigned short x; };
struct alignas(4) ushort2 { unsigned short x, y; };
struct ushort3 { unsigned short x, y, z; };
struct alignas(8) ushort4 { unsigned short x, y, z, w; };
struct int1 { int x; };
struct alignas(8) int2 { int x, y; };
struct int3 { int x, y, z; };
struct alignas(16) int4 { int x, y, z, w; };
struct uint1 { unsigned int x; };
struct alignas(8) uint2 { unsigned int x, y; };
struct uint3 { unsigned int x, y, z; };
struct alignas(16) uint4 { unsigned int x, y, z, w; };
struct long1 { long int x; };
struct alignas(16) long2 { long int x, y; };
struct long3 { long int x, y, z; };
struct alignas(16) long4 { long int x, y, z, w; };
struct ulong1 { unsigned long int x; };
struct alignas(16) ulong2 { unsigned long int x, y; };
struct ulong3 { unsigned long int x, y, z; };
struct alignas(16) ulong4 { unsigned long int x, y, z, w; };
struct longlong1 { long long int x; };
struct alignas(16) longlong2 { long long int x, y; };
struct longlong3 { long long int x, y, z; };
struct alignas(16) longlong4 { long long int x, y, z, w; };
struct ulonglong1 { unsigned long long int x; };
struct alignas(16) ulonglong2 { unsigned long long int x, y; };
struct ulonglong3 { unsigned long long int x, y, z; };
struct alignas(16) ulonglong4 { unsigned long long int x, y, z, w; };
struct float1 { float x; };
struct alignas(8) float2 { float x, y; };
struct float3 { float x, y, z; };
struct alignas(16) float4 { float x, y, z, w; };
struct double1 { double x; };
struct alignas(16) double2 { double x, y; };
struct double3 { double x, y, z; };
struct alignas(16) double4 { double x, y, z, w; };
struct dim3 { unsigned int x, y, z; };

#endif
