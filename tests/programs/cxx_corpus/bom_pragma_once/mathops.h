#pragma once

#define MATHOPS_VERSION 3

__forceinline__ __device__ int cube_plus(int x) { return x * x * x + 1; }

__noinline__ __device__ int keep_call(int x) { return 2 * x; }

struct __align__(16) Aligned4 {
    int a, b, c, d;
};
