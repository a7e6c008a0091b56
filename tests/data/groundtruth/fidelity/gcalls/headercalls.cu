// One kernel per CUDA header function a user commonly calls: which ones nvcc -G emits out of
// line (CALL/RET, counted by ncu as branches) and the shape of their bodies.  Each kernel is
// launched with one block of 64 threads (2 warps), every thread calling the function once.
#include <cstdio>
#include <cuda_runtime.h>

#define N 64
#define K_INT(NAME, EXPR) __global__ void NAME(int *in, int *out) { int i = threadIdx.x; int a = in[i]; out[i] = (EXPR); }
#define K_UINT(NAME, EXPR) __global__ void NAME(unsigned *in, unsigned *out) { int i = threadIdx.x; unsigned a = in[i]; out[i] = (EXPR); }
#define K_LL(NAME, EXPR) __global__ void NAME(long long *in, long long *out) { int i = threadIdx.x; long long a = in[i]; out[i] = (EXPR); }
#define K_FLT(NAME, EXPR) __global__ void NAME(float *in, float *out) { int i = threadIdx.x; float a = in[i]; out[i] = (EXPR); }
#define K_DBL(NAME, EXPR) __global__ void NAME(double *in, double *out) { int i = threadIdx.x; double a = in[i]; out[i] = (EXPR); }

K_INT(k_none, a + 1)
K_INT(k_min_int, min(a, 5))
K_INT(k_max_int, max(a, -3))
K_INT(k_min_max_int, min(max(a, -3), 5))
K_UINT(k_min_uint, min(a, 7u))
K_UINT(k_max_uint, max(a, 7u))
K_LL(k_min_ll, min(a, 5ll))
K_LL(k_max_ll, max(a, 5ll))
K_INT(k_abs_int, abs(a))
K_LL(k_llabs, llabs(a))
K_FLT(k_fminf, fminf(a, 0.5f))
K_FLT(k_fmaxf, fmaxf(a, 0.5f))
K_FLT(k_min_float, min(a, 0.5f))
K_FLT(k_max_float, max(a, 0.5f))
K_FLT(k_fabsf, fabsf(a))
K_DBL(k_fmin, fmin(a, 0.5))
K_DBL(k_fmax, fmax(a, 0.5))
K_DBL(k_fabs, fabs(a))
K_FLT(k_sqrtf, sqrtf(a))
K_FLT(k_floorf, floorf(a))
K_FLT(k_expf, expf(a))
K_FLT(k_fast_expf, __expf(a))
K_FLT(k_fdividef, __fdividef(a, 3.0f))
K_FLT(k_rsqrtf, rsqrtf(a))
K_FLT(k_fmaf, fmaf(a, 2.0f, 1.0f))
K_INT(k_popc, __popc(a))
K_INT(k_clz, __clz(a))
K_INT(k_ffs, __ffs(a))
K_UINT(k_brev, __brev(a))
K_INT(k_mul24, __mul24(a, 3))
K_INT(k_mulhi, __mulhi(a, 123456789))
K_INT(k_atomicAdd, atomicAdd(&out[N + (a & 3)], 1))
K_UINT(k_atomicAdd_uint, atomicAdd(&out[N + (a & 3)], 1u))
K_FLT(k_atomicAdd_float, atomicAdd(&out[N], a))
K_INT(k_atomicSub, atomicSub(&out[N + (a & 3)], 1))
K_INT(k_atomicMax, atomicMax(&out[N], a))
K_INT(k_atomicMin, atomicMin(&out[N], a))
K_UINT(k_atomicMax_uint, atomicMax(&out[N], a))
K_INT(k_atomicExch, atomicExch(&out[N + (a & 3)], a))
K_INT(k_atomicCAS, atomicCAS(&out[N], 0, a))
K_INT(k_atomicAnd, atomicAnd(&out[N], a))
K_INT(k_atomicOr, atomicOr(&out[N], a))
K_INT(k_atomicXor, atomicXor(&out[N], a))
K_UINT(k_atomicInc, atomicInc(&out[N], 100u))
K_UINT(k_atomicDec, atomicDec(&out[N], 100u))
K_INT(k_shfl, __shfl_sync(0xffffffff, a, 3))
K_INT(k_shfl_up, __shfl_up_sync(0xffffffff, a, 1))
K_INT(k_shfl_down, __shfl_down_sync(0xffffffff, a, 1))
K_INT(k_shfl_xor, __shfl_xor_sync(0xffffffff, a, 1))
K_FLT(k_shfl_down_float, __shfl_down_sync(0xffffffff, a, 1))
K_INT(k_shfl_width, __shfl_sync(0xffffffff, a, 3, 16))
K_INT(k_ballot, (int)__ballot_sync(0xffffffff, a > 3))
K_INT(k_any, __any_sync(0xffffffff, a > 3))
K_INT(k_all, __all_sync(0xffffffff, a > 3))
K_INT(k_activemask, (int)__activemask())
K_INT(k_syncwarp, (__syncwarp(), a))
K_INT(k_syncthreads, (__syncthreads(), a))
K_INT(k_threadfence, (__threadfence(), a))
K_INT(k_ldg, __ldg(&in[(i + 1) % N]))
// the same function called under a divergent if and twice in a row
__global__ void k_min_divergent(int *in, int *out) { int i = threadIdx.x; int a = in[i]; if (i & 1) a = min(a, 5); out[i] = a; }
__global__ void k_atomicAdd_twice(int *in, int *out) { int i = threadIdx.x; atomicAdd(&out[N], in[i]); atomicAdd(&out[N + 1], 1); out[i] = 0; }

template <typename T> void setup(T **din, T **dout) {
  T h[N];
  for (int i = 0; i < N; i++) h[i] = (T)((i * 7) % 19 - 6);
  cudaMalloc(din, N * sizeof(T)); cudaMalloc(dout, (N + 4) * sizeof(T));
  cudaMemcpy(*din, h, N * sizeof(T), cudaMemcpyHostToDevice);
  cudaMemset(*dout, 0, (N + 4) * sizeof(T));
}
template <typename T> void finish(T *din, T *dout, const char *name) {
  T r[N + 4];
  cudaMemcpy(r, dout, (N + 4) * sizeof(T), cudaMemcpyDeviceToHost);
  double s = 0;
  for (int i = 0; i < N + 4; i++) s += (double)r[i] * (i % 5 + 1);
  printf("%s %.6f\n", name, s);
  cudaFree(din); cudaFree(dout);
}
#define RUN(T, k) { T *din, *dout; setup<T>(&din, &dout); k<<<1, N>>>(din, dout); finish<T>(din, dout, #k); }

int main() {
  RUN(int, k_none)
  RUN(int, k_min_int)
  RUN(int, k_max_int)
  RUN(int, k_min_max_int)
  RUN(unsigned, k_min_uint)
  RUN(unsigned, k_max_uint)
  RUN(long long, k_min_ll)
  RUN(long long, k_max_ll)
  RUN(int, k_abs_int)
  RUN(long long, k_llabs)
  RUN(float, k_fminf)
  RUN(float, k_fmaxf)
  RUN(float, k_min_float)
  RUN(float, k_max_float)
  RUN(float, k_fabsf)
  RUN(double, k_fmin)
  RUN(double, k_fmax)
  RUN(double, k_fabs)
  RUN(float, k_sqrtf)
  RUN(float, k_floorf)
  RUN(float, k_expf)
  RUN(float, k_fast_expf)
  RUN(float, k_fdividef)
  RUN(float, k_rsqrtf)
  RUN(float, k_fmaf)
  RUN(int, k_popc)
  RUN(int, k_clz)
  RUN(int, k_ffs)
  RUN(unsigned, k_brev)
  RUN(int, k_mul24)
  RUN(int, k_mulhi)
  RUN(int, k_atomicAdd)
  RUN(unsigned, k_atomicAdd_uint)
  RUN(float, k_atomicAdd_float)
  RUN(int, k_atomicSub)
  RUN(int, k_atomicMax)
  RUN(int, k_atomicMin)
  RUN(unsigned, k_atomicMax_uint)
  RUN(int, k_atomicExch)
  RUN(int, k_atomicCAS)
  RUN(int, k_atomicAnd)
  RUN(int, k_atomicOr)
  RUN(int, k_atomicXor)
  RUN(unsigned, k_atomicInc)
  RUN(unsigned, k_atomicDec)
  RUN(int, k_shfl)
  RUN(int, k_shfl_up)
  RUN(int, k_shfl_down)
  RUN(int, k_shfl_xor)
  RUN(float, k_shfl_down_float)
  RUN(int, k_shfl_width)
  RUN(int, k_ballot)
  RUN(int, k_any)
  RUN(int, k_all)
  RUN(int, k_activemask)
  RUN(int, k_syncwarp)
  RUN(int, k_syncthreads)
  RUN(int, k_threadfence)
  RUN(int, k_ldg)
  RUN(int, k_min_divergent)
  RUN(int, k_atomicAdd_twice)
  return 0;
}
