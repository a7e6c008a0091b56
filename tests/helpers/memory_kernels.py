"""Kernels the memory counters' and the load round trips' tests share (tests/vm/test_memcounters.py,
test_load_rounds.py, and the engines' comparison, test_jit_memcounters.py)."""

STRIDED = """__global__ void strided(const float *in, float *out, int stride, int offset) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = in[i * stride + offset];
}
struct P { float x; float y; };
__global__ void aos(P *p) { int i = threadIdx.x; p[i].x += 1.0f; p[i].y += 2.0f; }
__global__ void tile(float *out, int pad) {
  __shared__ float t[32 * 33];
  int x = threadIdx.x, y = threadIdx.y;
  t[y * (32 + pad) + x] = (float)x;
  __syncthreads();
  out[y * 32 + x] = t[x * (32 + pad) + y];
}
__global__ void stride_words(float *out, int stride) {
  __shared__ float s[32 * 32];
  s[threadIdx.x] = 1.0f;
  __syncthreads();
  out[threadIdx.x] = s[threadIdx.x * stride];
}
__global__ void local_pick(const int *index, float *out) {
  float a[8];
  for (int k = 0; k < 8; k++) a[k] = (float)k;
  out[threadIdx.x] = a[index[threadIdx.x] & 7];
}
"""

LOAD_ROUNDS = """__global__ void sum_rows(const float *m, float *out, int n) {
  float s = 0;
  for (int k = 0; k < n; k++) s += m[k * 32 + threadIdx.x];
  out[threadIdx.x] = s;
}
__global__ void chase(const int *next, int *out, int n) {
  int i = threadIdx.x;
  for (int k = 0; k < n; k++) i = next[i];
  out[threadIdx.x] = i;
}
__global__ void staged(const float *a, float *out) {
  __shared__ float t[64];
  t[threadIdx.x] = a[threadIdx.x] + a[threadIdx.x + 32];
  __syncthreads();
  out[threadIdx.x] = t[31 - threadIdx.x] + a[threadIdx.x + 64];
}
__global__ void copy_loop(float *x, int n) {
  for (int k = 0; k < n; k++) x[k * 32 + threadIdx.x] += 1.0f;
}
__global__ void fma_chain(float *out, int n) {
  float x = threadIdx.x, y = 1.0f;
  for (int k = 0; k < n; k++) { x = x * 1.5f + 0.5f; y = y * 0.5f; }
  out[threadIdx.x] = x + y;
}
"""
