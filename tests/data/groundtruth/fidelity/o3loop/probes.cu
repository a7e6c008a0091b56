// Probe kernels for -O3 loops (minicuda's o3loop data): guarded loads in unrolled bodies and not
// unrolled, division-stepped loops, data-dependent trip counts (CSR rows) with and without an
// early test, and switch lowering (case counts, dense and sparse).  Each kernel varies one thing.
// Every kernel is launched once, grid 2, block 128 (n = 256 threads); main prints one checksum
// per kernel (the sum of out[]) so that an engine's results can be compared with the GPU's.
#include <cstdio>

#define PROBE(name) __global__ void name(const int *p, const int *a, const int *b, int *out, int n)

// --- guarded loads: `if (j >= 0) s += a[j]` per tap -----------------------------------------
PROBE(gl_taps3) {
  int i = blockIdx.x * blockDim.x + threadIdx.x, s = 0;
#pragma unroll
  for (int k = 0; k < 3; k++) { int j = i - k; if (j >= 0) s += a[j]; }
  out[i] = s;
}
PROBE(gl_taps7) {
  int i = blockIdx.x * blockDim.x + threadIdx.x, s = 0;
#pragma unroll
  for (int k = 0; k < 7; k++) { int j = i - k; if (j >= 0) s += a[j]; }
  out[i] = s;
}
PROBE(gl_taps16) {
  int i = blockIdx.x * blockDim.x + threadIdx.x, s = 0;
#pragma unroll
  for (int k = 0; k < 16; k++) { int j = i - k; if (j >= 0) s += a[j]; }
  out[i] = s;
}
PROBE(gl_taps7_mul) {
  int i = blockIdx.x * blockDim.x + threadIdx.x, s = 0;
  const int taps[7] = {1, 2, 3, 4, 3, 2, 1};
#pragma unroll
  for (int k = 0; k < 7; k++) { int j = i - k; if (j >= 0) s += taps[k] * a[j]; }
  out[i] = s;
}
PROBE(gl_taps7_noprag) {
  int i = blockIdx.x * blockDim.x + threadIdx.x, s = 0;
  for (int k = 0; k < 7; k++) { int j = i - k; if (j >= 0) s += a[j]; }
  out[i] = s;
}
PROBE(gl_taps7_unroll1) {
  int i = blockIdx.x * blockDim.x + threadIdx.x, s = 0;
#pragma unroll 1
  for (int k = 0; k < 7; k++) { int j = i - k; if (j >= 0) s += a[j]; }
  out[i] = s;
}
PROBE(gl_taps7_two_loads) {
  int i = blockIdx.x * blockDim.x + threadIdx.x, s = 0;
#pragma unroll
  for (int k = 0; k < 7; k++) { int j = i - k; if (j >= 0) s += a[j] * b[j]; }
  out[i] = s;
}
PROBE(gl_taps7_store) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
#pragma unroll
  for (int k = 0; k < 7; k++) { int j = i - k; if (j >= 0) out[i * 8 + k] = a[j]; }
}
PROBE(gl_taps7_datacond) {
  int i = blockIdx.x * blockDim.x + threadIdx.x, s = 0, c = b[i];
#pragma unroll
  for (int k = 0; k < 7; k++) { if (c > k) s += a[i + k]; }
  out[i] = s;
}
PROBE(gl_taps7_shared) {
  __shared__ int sh[128];
  int t = threadIdx.x, i = blockIdx.x * blockDim.x + t, s = 0;
  sh[t] = a[i];
  __syncthreads();
#pragma unroll
  for (int k = 0; k < 7; k++) { int j = t - k; if (j >= 0) s += sh[j]; }
  out[i] = s;
}
PROBE(gl_one) {
  int i = blockIdx.x * blockDim.x + threadIdx.x, s = 0;
  if (i >= 1) s = a[i - 1];
  out[i] = s;
}
PROBE(gl_one_add) {
  int i = blockIdx.x * blockDim.x + threadIdx.x, s = b[i];
  if (i >= 1) s += a[i - 1];
  out[i] = s;
}
PROBE(gl_one_two_loads) {
  int i = blockIdx.x * blockDim.x + threadIdx.x, s = 0;
  if (i >= 1) s = a[i - 1] + b[i - 1];
  out[i] = s;
}
PROBE(gl_one_store) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = 0;
  if (i >= 1) out[i] = a[i - 1] + b[i - 1];
}

// --- division-stepped loops ------------------------------------------------------------------
PROBE(dv_shfl16) {
  int i = blockIdx.x * blockDim.x + threadIdx.x, s = a[i];
  for (int m = 16; m >= 1; m /= 2) s += __shfl_xor_sync(0xffffffff, s, m);
  out[i] = s;
}
PROBE(dv_shfl16_gt0) {
  int i = blockIdx.x * blockDim.x + threadIdx.x, s = a[i];
  for (int m = 16; m > 0; m /= 2) s += __shfl_xor_sync(0xffffffff, s, m);
  out[i] = s;
}
PROBE(dv_work64) {
  int i = blockIdx.x * blockDim.x + threadIdx.x, s = a[i];
  for (int m = 64; m > 0; m /= 2) s = s * 3 + m;
  out[i] = s;
}
PROBE(dv_div3) {
  int i = blockIdx.x * blockDim.x + threadIdx.x, s = a[i];
  for (int m = 81; m > 0; m /= 3) s = s * 3 + m;
  out[i] = s;
}
PROBE(dv_unsigned4) {
  int i = blockIdx.x * blockDim.x + threadIdx.x, s = a[i];
  for (unsigned m = 1024u; m != 0u; m /= 4u) s = s * 3 + (int)m;
  out[i] = s;
}
PROBE(dv_unknown) {
  int i = blockIdx.x * blockDim.x + threadIdx.x, s = a[i];
  for (int m = n; m > 0; m /= 2) s = s * 3 + m;
  out[i] = s;
}
PROBE(dv_big) {
  int i = blockIdx.x * blockDim.x + threadIdx.x, s = a[i];
  for (int m = 1 << 30; m > 0; m /= 2) s = s * 3 + m;
  out[i] = s;
}

// --- data-dependent trip counts (CSR rows: row r has p[r+1] - p[r] entries, 0 to 9) ----------
PROBE(csr_sum) {
  int r = blockIdx.x * blockDim.x + threadIdx.x, s = 0;
  for (int k = p[r]; k < p[r + 1]; k++) s += a[k];
  out[r] = s;
}
PROBE(csr_dot) {
  int r = blockIdx.x * blockDim.x + threadIdx.x, s = 0;
  for (int k = p[r]; k < p[r + 1]; k++) s += a[k] * b[k];
  out[r] = s;
}
PROBE(csr_gather) {
  int r = blockIdx.x * blockDim.x + threadIdx.x, s = 0;
  for (int k = p[r]; k < p[r + 1]; k++) s += a[k] * a[b[k]];
  out[r] = s;
}
PROBE(csr_gather_bounds) {
  int r = blockIdx.x * blockDim.x + threadIdx.x;
  if (r < n - 16) {
    int s = 0;
    for (int k = p[r]; k < p[r + 1]; k++) s += a[k] * a[b[k]];
    out[r] = s;
  }
}
PROBE(csr_early) {
  int r = blockIdx.x * blockDim.x + threadIdx.x, s = 0, lo = p[r], hi = p[r + 1];
  if (lo < hi) {
    for (int k = lo; k < hi; k++) s += a[k];
  }
  out[r] = s;
}
PROBE(csr_dowhile) {
  int r = blockIdx.x * blockDim.x + threadIdx.x, s = 0, lo = p[r], hi = p[r + 1];
  if (lo < hi) {
    int k = lo;
    do { s += a[k]; k++; } while (k < hi);
  }
  out[r] = s;
}
PROBE(csr_unroll1) {
  int r = blockIdx.x * blockDim.x + threadIdx.x, s = 0;
#pragma unroll 1
  for (int k = p[r]; k < p[r + 1]; k++) s += a[k];
  out[r] = s;
}
PROBE(csr_count) {
  int r = blockIdx.x * blockDim.x + threadIdx.x, s = 0, c = p[r + 1] - p[r];
  for (int k = 0; k < c; k++) s += a[r + k];
  out[r] = s;
}
PROBE(csr_tid) {
  int r = blockIdx.x * blockDim.x + threadIdx.x, s = 0;
  for (int k = 0; k < r % 10; k++) s += a[r + k];
  out[r] = s;
}

// --- switch lowering: the case counts, dense and sparse ----------------------------------------
PROBE(sw2) {
  int i = blockIdx.x * blockDim.x + threadIdx.x, x = a[i], r;
  switch (b[i]) { case 0: r = x + 3; break; case 1: r = x * 5; break; default: r = 0; }
  out[i] = r;
}
PROBE(sw3) {
  int i = blockIdx.x * blockDim.x + threadIdx.x, x = a[i], r;
  switch (b[i]) { case 0: r = x + 3; break; case 1: r = x * 5; break; case 2: r = x - 7; break; default: r = 0; }
  out[i] = r;
}
PROBE(sw4) {
  int i = blockIdx.x * blockDim.x + threadIdx.x, x = a[i], r;
  switch (b[i]) {
    case 0: r = x + 3; break; case 1: r = x * 5; break; case 2: r = x - 7; break; case 3: r = x & 9; break;
    default: r = 0;
  }
  out[i] = r;
}
PROBE(sw5) {
  int i = blockIdx.x * blockDim.x + threadIdx.x, x = a[i], r;
  switch (b[i]) {
    case 0: r = x + 3; break; case 1: r = x * 5; break; case 2: r = x - 7; break; case 3: r = x & 9; break;
    case 4: r = x << 2; break; default: r = 0;
  }
  out[i] = r;
}
PROBE(sw6) {
  int i = blockIdx.x * blockDim.x + threadIdx.x, x = a[i], r;
  switch (b[i]) {
    case 0: r = x + 3; break; case 1: r = x * 5; break; case 2: r = x - 7; break; case 3: r = x & 9; break;
    case 4: r = x << 2; break; case 5: r = x ^ 6; break; default: r = 0;
  }
  out[i] = r;
}
PROBE(sw8) {
  int i = blockIdx.x * blockDim.x + threadIdx.x, x = a[i], r;
  switch (b[i]) {
    case 0: r = x + 3; break; case 1: r = x * 5; break; case 2: r = x - 7; break; case 3: r = x & 9; break;
    case 4: r = x << 2; break; case 5: r = x ^ 6; break; case 6: r = x | 12; break; case 7: r = x >> 1; break;
    default: r = 0;
  }
  out[i] = r;
}
PROBE(sw5_sparse) {
  int i = blockIdx.x * blockDim.x + threadIdx.x, x = a[i], r;
  switch (b[i] * 37) {
    case 0: r = x + 3; break; case 37: r = x * 5; break; case 111: r = x - 7; break; case 222: r = x & 9; break;
    case 370: r = x << 2; break; default: r = 0;
  }
  out[i] = r;
}
PROBE(sw5_store) {
  int i = blockIdx.x * blockDim.x + threadIdx.x, x = a[i];
  switch (b[i]) {
    case 0: out[i] = x + 3; break; case 1: out[i] = x * 5; break; case 2: out[i] = x - 7; break;
    case 3: out[i] = x & 9; break; case 4: out[i] = x << 2; break; default: out[i] = 0;
  }
}
PROBE(sw5_uniform) {
  int i = blockIdx.x * blockDim.x + threadIdx.x, x = a[i], r;
  switch (n % 7) {
    case 0: r = x + 3; break; case 1: r = x * 5; break; case 2: r = x - 7; break; case 3: r = x & 9; break;
    case 4: r = x << 2; break; default: r = 0;
  }
  out[i] = r;
}

static long long checksum(const int *h, int size) {
  long long sum = 0;
  for (int i = 0; i < size; i++) sum += (long long)h[i] * (i % 7 + 1);
  return sum;
}

#define RUN(name)                                                      \
  cudaMemset(d_out, 0, sizeof(h_out));                                 \
  name<<<2, 128>>>(d_p, d_a, d_b, d_out, n);                           \
  cudaMemcpy(h_out, d_out, sizeof(h_out), cudaMemcpyDeviceToHost);     \
  printf("%s %lld\n", #name, checksum(h_out, size));

int main() {
  const int n = 256, size = 4096;
  static int h_p[size], h_a[size], h_b[size], h_out[size];
  h_p[0] = 0;
  for (int r = 0; r < n + 1; r++) h_p[r + 1] = h_p[r] + (r * 7 + r / 5) % 10;
  for (int i = 0; i < size; i++) {
    h_a[i] = (i * 53 + 7) % 101 - 50;
    h_b[i] = (i * 3 + i / 8) % 11;
  }
  int *d_p, *d_a, *d_b, *d_out;
  cudaMalloc(&d_p, sizeof(h_p));
  cudaMalloc(&d_a, sizeof(h_a));
  cudaMalloc(&d_b, sizeof(h_b));
  cudaMalloc(&d_out, sizeof(h_out));
  cudaMemcpy(d_p, h_p, sizeof(h_p), cudaMemcpyHostToDevice);
  cudaMemcpy(d_a, h_a, sizeof(h_a), cudaMemcpyHostToDevice);
  cudaMemcpy(d_b, h_b, sizeof(h_b), cudaMemcpyHostToDevice);
  RUN(gl_taps3)
  RUN(gl_taps7)
  RUN(gl_taps16)
  RUN(gl_taps7_mul)
  RUN(gl_taps7_noprag)
  RUN(gl_taps7_unroll1)
  RUN(gl_taps7_two_loads)
  RUN(gl_taps7_store)
  RUN(gl_taps7_datacond)
  RUN(gl_taps7_shared)
  RUN(gl_one)
  RUN(gl_one_add)
  RUN(gl_one_two_loads)
  RUN(gl_one_store)
  RUN(dv_shfl16)
  RUN(dv_shfl16_gt0)
  RUN(dv_work64)
  RUN(dv_div3)
  RUN(dv_unsigned4)
  RUN(dv_unknown)
  RUN(dv_big)
  RUN(csr_sum)
  RUN(csr_dot)
  RUN(csr_gather)
  RUN(csr_gather_bounds)
  RUN(csr_early)
  RUN(csr_dowhile)
  RUN(csr_unroll1)
  RUN(csr_count)
  RUN(csr_tid)
  RUN(sw2)
  RUN(sw3)
  RUN(sw4)
  RUN(sw5)
  RUN(sw6)
  RUN(sw8)
  RUN(sw5_sparse)
  RUN(sw5_store)
  RUN(sw5_uniform)
  cudaFree(d_p); cudaFree(d_a); cudaFree(d_b); cudaFree(d_out);
  return 0;
}
