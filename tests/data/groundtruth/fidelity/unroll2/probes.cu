// Loop-unrolling probes: what nvcc -O3 (NVVM's LLVM loop unroller, then ptxas) does to loops
// of each shape.  Compiled only (no launch): read the PTX (NVVM's decision) and the SASS
// (ptxas's) of each kernel.
#define K extern "C" __global__

// -- shift- and multiply-stepped loops (SCEV's trip count of a shift / multiply step)
K void shr_shfl_5(int *in, int *out) {
  int v = in[threadIdx.x];
  for (int o = 16; o > 0; o >>= 1) v += __shfl_down_sync(0xffffffff, v, o);
  out[threadIdx.x] = v;
}
K void shl_shfl_5(int *in, int *out) {
  int v = in[threadIdx.x];
  for (int o = 1; o < 32; o <<= 1) v += __shfl_xor_sync(0xffffffff, v, o);
  out[threadIdx.x] = v;
}
K void shr_load_21(int *in, int *out) {
  int v = 0;
  for (int o = 1 << 20; o > 0; o >>= 1) v += in[o & 1023];
  out[threadIdx.x] = v;
}
K void shr_unsigned_32(unsigned *in, int *out) {
  unsigned x = in[threadIdx.x];
  int c = 0;
  for (unsigned m = 0x80000000u; m != 0; m >>= 1) c += (x & m) ? 1 : 0;
  out[threadIdx.x] = c;
}
K void shr_unknown(int *in, int *out, int n) {
  int v = in[threadIdx.x];
  for (int s = n; s > 0; s >>= 1) v += in[s];
  out[threadIdx.x] = v;
}
K void shr_syncthreads_blockdim(float *in, float *out) {
  __shared__ float s[256];
  int t = threadIdx.x;
  s[t] = in[t];
  __syncthreads();
  for (int st = blockDim.x / 2; st > 0; st >>= 1) {
    if (t < st) s[t] += s[t + st];
    __syncthreads();
  }
  if (t == 0) out[blockIdx.x] = s[0];
}
K void shr_syncthreads_const(float *in, float *out) {
  __shared__ float s[256];
  int t = threadIdx.x;
  s[t] = in[t];
  __syncthreads();
  for (int st = 128; st > 0; st >>= 1) {
    if (t < st) s[t] += s[t + st];
    __syncthreads();
  }
  if (t == 0) out[blockIdx.x] = s[0];
}
K void mul3_load_7(int *in, int *out) {
  int v = 0;
  for (int k = 1; k < 1000; k *= 3) v += in[k];
  out[threadIdx.x] = v;
}
K void mul2_load_20(int *in, int *out) {
  int v = 0;
  for (int k = 1; k < 1000000; k *= 2) v += in[k & 4095];
  out[threadIdx.x] = v;
}
K void mul2_unknown(int *in, int *out, int n) {
  int v = 0;
  for (int k = 1; k < n; k *= 2) v += in[k];
  out[threadIdx.x] = v;
}

// -- bounded do-whiles: a data exit and a counter exit (collatz), several bounds
#define COLLATZ(NAME, BOUND)                                          \
  K void NAME(int *in, int *out) {                                    \
    int x = in[threadIdx.x], steps = 0;                               \
    do {                                                              \
      x = (x & 1) ? 3 * x + 1 : x / 2;                                \
      steps++;                                                        \
    } while (x != 1 && steps < BOUND);                                \
    out[threadIdx.x] = steps;                                         \
  }
COLLATZ(collatz_8, 8)
COLLATZ(collatz_16, 16)
COLLATZ(collatz_32, 32)
COLLATZ(collatz_64, 64)
COLLATZ(collatz_100, 100)
COLLATZ(collatz_128, 128)
COLLATZ(collatz_129, 129)
COLLATZ(collatz_200, 200)
COLLATZ(collatz_256, 256)
COLLATZ(collatz_1000, 1000)
// the same with a bigger body
#define COLLATZ_BIG(NAME, BOUND)                                      \
  K void NAME(int *in, int *out) {                                    \
    int x = in[threadIdx.x], steps = 0, acc = 0;                      \
    do {                                                              \
      x = (x & 1) ? 3 * x + 1 : x / 2;                                \
      acc = (acc ^ (x * 7)) + (x >> 3) * 5 - (acc >> 2);              \
      steps++;                                                        \
    } while (x != 1 && steps < BOUND);                                \
    out[threadIdx.x] = steps + acc;                                   \
  }
COLLATZ_BIG(collatz_big_16, 16)
COLLATZ_BIG(collatz_big_32, 32)
COLLATZ_BIG(collatz_big_64, 64)
COLLATZ_BIG(collatz_big_100, 100)
// the while form: the tests at the top
K void collatz_while_100(int *in, int *out) {
  int x = in[threadIdx.x], steps = 0;
  while (x != 1 && steps < 100) {
    x = (x & 1) ? 3 * x + 1 : x / 2;
    steps++;
  }
  out[threadIdx.x] = steps;
}

// -- constant trip counts, body not foldable (a load per trip), sizes near the limits
#define SUMLOAD(NAME, N)                                               \
  K void NAME(int *in, int *out) {                                     \
    int s = 0;                                                         \
    for (int i = 0; i < N; i++) s += in[i * 3 + threadIdx.x] * (i | 1);\
    out[threadIdx.x] = s;                                              \
  }
SUMLOAD(const_32, 32)
SUMLOAD(const_64, 64)
SUMLOAD(const_100, 100)
SUMLOAD(const_128, 128)
SUMLOAD(const_129, 129)
SUMLOAD(const_256, 256)
SUMLOAD(const_512, 512)
#define SUMBIG(NAME, N)                                                \
  K void NAME(int *in, int *out) {                                     \
    int s = 0, t = threadIdx.x;                                        \
    for (int i = 0; i < N; i++) {                                      \
      int a = in[i * 3 + t], b = in[i * 5 + t + 7];                    \
      s = (s ^ (a * b)) + (a >> 2) - (b << 1) + (s >> 3);              \
    }                                                                  \
    out[t] = s;                                                        \
  }
SUMBIG(const_big_16, 16)
SUMBIG(const_big_32, 32)
SUMBIG(const_big_64, 64)
SUMBIG(const_big_100, 100)

// -- early exits in a constant-trip loop
#define SEARCH(NAME, N)                                                \
  K void NAME(int *in, int *out) {                                     \
    int key = threadIdx.x % 29 - 7, pos = -1;                          \
    for (int j = 0; j < N; j++)                                        \
      if (in[j] == key) { pos = j; break; }                            \
    out[threadIdx.x] = pos;                                            \
  }
SEARCH(search_32, 32)
SEARCH(search_64, 64)
SEARCH(search_128, 128)
SEARCH(search_256, 256)

// -- data-dependent trip counts, steps other than 1
K void while_sub3(int *in, int *out) {
  int x = in[threadIdx.x];
  while (x > 0) x -= 3;
  out[threadIdx.x] = x;
}
K void while_sub3_work(int *in, int *out) {
  int x = in[threadIdx.x], s = 0;
  while (x > 0) { s += in[x & 255]; x -= 3; }
  out[threadIdx.x] = s;
}
K void for_step2(int *in, int *out, int n) {
  int s = 0;
  for (int i = 0; i < n; i += 2) s += in[i];
  out[threadIdx.x] = s;
}
K void for_step3(int *in, int *out, int n) {
  int s = 0;
  for (int i = threadIdx.x; i < n; i += 3) s += in[i];
  out[threadIdx.x] = s;
}
K void for_unknown_tiny(int *in, int *out, int n) {
  int s = 0;
  for (int i = 0; i < n; i++) s += in[i];
  out[threadIdx.x] = s;
}
K void for_unknown_medium(int *in, int *out, int n) {
  int s = 0, t = threadIdx.x;
  for (int i = 0; i < n; i++) {
    int a = in[i * 3 + t], b = in[i * 5 + t + 7];
    s = (s ^ (a * b)) + (a >> 2) - (b << 1) + (s >> 3);
  }
  out[t] = s;
}
K void for_unknown_large(int *in, int *out, int n) {
  int s = 0, t = threadIdx.x;
  for (int i = 0; i < n; i++) {
    int a = in[i * 3 + t], b = in[i * 5 + t + 7], c = in[i * 7 + t + 3], d = in[i + t + 11];
    s = (s ^ (a * b)) + (a >> 2) - (b << 1) + (s >> 3);
    s = (s ^ (c * d)) + (c >> 3) - (d << 2) + (s >> 5) + a * d - b * c;
    s = s * 13 + (a ^ c) - (b | d);
  }
  out[t] = s;
}
K void for_unknown_syncthreads(float *in, float *out, int n) {
  __shared__ float s[256];
  int t = threadIdx.x;
  float acc = 0;
  for (int i = 0; i < n; i++) {
    s[t] = in[i * 256 + t];
    __syncthreads();
    acc += s[(t + 1) & 255];
    __syncthreads();
  }
  out[t] = acc;
}
K void for_unknown_shfl(int *in, int *out, int n) {
  int v = in[threadIdx.x];
  for (int i = 0; i < n; i++) v += __shfl_down_sync(0xffffffff, v, 1);
  out[threadIdx.x] = v;
}
K void for_unknown_break(int *in, int *out, int n) {
  int key = threadIdx.x % 29 - 7, pos = -1;
  for (int j = 0; j < n; j++)
    if (in[j] == key) { pos = j; break; }
  out[threadIdx.x] = pos;
}
K void for_const_pragma_unroll(int *in, int *out) {
  int s = 0;
#pragma unroll
  for (int i = 0; i < 300; i++) s += in[i * 3 + threadIdx.x] * (i | 1);
  out[threadIdx.x] = s;
}
K void for_shr_pragma1(int *in, int *out) {
  int v = in[threadIdx.x];
#pragma unroll 1
  for (int o = 16; o > 0; o >>= 1) v += __shfl_down_sync(0xffffffff, v, o);
  out[threadIdx.x] = v;
}
