// -G control-shape probes: one kernel per shape (loops with break / continue, do-while, while,
// nested loops, a loop in a device function, a switch in a loop, a loop with a return, a local
// array, atomics in nested ifs), each launched once with 64 threads whose trip counts and
// exits differ lane by lane.  Each prints its name and the sum of its outputs.
#include <cstdio>

#define N 64

__global__ void p_for_break_phi(const int *in, int *out) {
  int t = threadIdx.x, pos = -1;
  for (int j = 0; j < 16; j++) {
    if (in[(t + j) & 63] == 3) { pos = j; break; }
  }
  out[t] = pos;
}

__global__ void p_for_break_mem(const int *in, int *out) {
  int t = threadIdx.x;
  for (int j = 0; j < t % 20; j++) {
    if (in[(t + j) & 63] == 3) break;
    out[t] += 1;
  }
}

__global__ void p_for_continue(const int *in, int *out) {
  int t = threadIdx.x, s = 0;
  for (int j = 0; j < t % 16; j++) {
    if (in[(t + j) & 63] & 1) continue;
    s += j;
  }
  out[t] = s;
}

__global__ void p_for_break_continue(const int *in, int *out) {
  int t = threadIdx.x, s = 0;
  for (int j = 0; j < 16; j++) {
    int v = in[(t * 5 + j) & 63];
    if (v == 0) continue;
    if (v == 6) break;
    s += v;
  }
  out[t] = s;
}

__global__ void p_do_while(const int *in, int *out) {
  int t = threadIdx.x, x = t % 13, s = 0;
  do {
    s += x;
    x -= 2;
  } while (x > 0);
  out[t] = s;
}

__global__ void p_do_while_and(const int *in, int *out) {
  int t = threadIdx.x, x = t + 1, steps = 0;
  do {
    x = (x & 1) ? x + 5 : x / 2;
    steps++;
  } while (x != 1 && steps < 12);
  out[t] = steps;
}

__global__ void p_do_while_break(const int *in, int *out) {
  int t = threadIdx.x, x = t % 11, s = 0;
  do {
    if (in[(t + x) & 63] == 5) break;
    s += x;
    x--;
  } while (x > 0);
  out[t] = s;
}

__global__ void p_while_plain(const int *in, int *out) {
  int t = threadIdx.x, x = t % 17, s = 0;
  while (x > 0) {
    s += x;
    x -= 3;
  }
  out[t] = s;
}

__global__ void p_while_break(const int *in, int *out) {
  int t = threadIdx.x, x = t % 17, s = 0;
  while (x > 0) {
    if (in[(t + x) & 63] == 2) break;
    s += x;
    x--;
  }
  out[t] = s;
}

__global__ void p_nested_break(const int *in, int *out) {
  int t = threadIdx.x, s = 0;
  for (int i = 0; i < 3; i++) {
    for (int j = 0; j < t % 8; j++) {
      if (in[(t + i * 8 + j) & 63] == 1) break;
      s += j;
    }
    s += i;
  }
  out[t] = s;
}

__device__ __noinline__ int search_fn(const int *in, int t, int n) {
  int s = 0;
  for (int j = 0; j < n; j++) {
    if (in[(t + j) & 63] == 4) break;
    s += j;
  }
  return s;
}

__global__ void p_devfn_loop(const int *in, int *out) {
  int t = threadIdx.x;
  out[t] = search_fn(in, t, t % 16);
}

__global__ void p_switch_loop(const int *in, int *out) {
  int t = threadIdx.x, s = 0;
  for (int j = 0; j < t % 8; j++) {
    switch (in[(t + j) & 63] & 3) {
      case 0: s += 1; break;
      case 1: s += 2; break;
      default: s += 3; break;
    }
  }
  out[t] = s;
}

__global__ void p_loop_uniform(const int *in, int *out, int n) {
  int t = threadIdx.x, s = 0;
  for (int j = 0; j < n; j++) s += in[j];
  out[t] = s + t;
}

__global__ void p_loop_postif(const int *in, int *out) {
  int t = threadIdx.x, s = 0;
  for (int j = 0; j < t % 8; j++) s += j;
  if (s > 10) s *= 2;
  out[t] = s;
}

__global__ void p_break_postif(const int *in, int *out) {
  int t = threadIdx.x, pos = -1;
  for (int j = 0; j < 16; j++) {
    if (in[(t + j) & 63] == 3) { pos = j; break; }
  }
  if (pos > 4) pos += 100;
  out[t] = pos;
}

__global__ void p_return_in_loop(const int *in, int *out) {
  int t = threadIdx.x;
  for (int j = 0; j < 16; j++) {
    if (in[(t + j) & 63] == 3) { out[t] = j; return; }
  }
  out[t] = -1;
}

__global__ void p_local_array(const int *in, int *out) {
  int t = threadIdx.x;
  const int taps[4] = {1, 3, 5, 7};
  out[t] = taps[in[t] & 3] + t;
}

__global__ void p_atomic_nested(const int *in, int *out) {
  int t = threadIdx.x;
  if (t < 60) {
    int c = in[t];
    if (c >= 0 && c < 5) {
      atomicAdd(&out[c], t);
      atomicMax(&out[8], t);
    } else {
      atomicMin(&out[9], t);
    }
  }
}

__global__ void p_ifelse_in_if(const int *in, int *out) {
  int t = threadIdx.x;
  if (t < 60) {
    if (in[t] < 5) out[t] = 1;
    else out[t] = 2;
  }
}

__global__ void p_atomic_max(const int *in, int *out) { atomicMax(&out[0], in[threadIdx.x]); }
__global__ void p_atomic_min(const int *in, int *out) { atomicMin(&out[0], in[threadIdx.x]); }
__global__ void p_atomic_add_max(const int *in, int *out) {
  atomicAdd(&out[1], in[threadIdx.x]);
  atomicMax(&out[0], in[threadIdx.x]);
}

int main() {
  int h_in[N], h_out[N];
  for (int i = 0; i < N; i++) h_in[i] = (i * 5 + i / 7) % 7;
  int *d_in, *d_out;
  cudaMalloc(&d_in, sizeof(h_in));
  cudaMalloc(&d_out, sizeof(h_out));
  cudaMemcpy(d_in, h_in, sizeof(h_in), cudaMemcpyHostToDevice);
#define RUN(name, ...)                                                  \
  {                                                                     \
    cudaMemset(d_out, 0, sizeof(h_out));                                \
    name<<<1, N>>>(__VA_ARGS__);                                        \
    cudaMemcpy(h_out, d_out, sizeof(h_out), cudaMemcpyDeviceToHost);    \
    long long s = 0;                                                    \
    for (int i = 0; i < N; i++) s += h_out[i] * (i + 1);                \
    printf("%s %lld\n", #name, s);                                      \
  }
  RUN(p_for_break_phi, d_in, d_out)
  RUN(p_for_break_mem, d_in, d_out)
  RUN(p_for_continue, d_in, d_out)
  RUN(p_for_break_continue, d_in, d_out)
  RUN(p_do_while, d_in, d_out)
  RUN(p_do_while_and, d_in, d_out)
  RUN(p_do_while_break, d_in, d_out)
  RUN(p_while_plain, d_in, d_out)
  RUN(p_while_break, d_in, d_out)
  RUN(p_nested_break, d_in, d_out)
  RUN(p_devfn_loop, d_in, d_out)
  RUN(p_switch_loop, d_in, d_out)
  RUN(p_loop_uniform, d_in, d_out, 9)
  RUN(p_loop_postif, d_in, d_out)
  RUN(p_break_postif, d_in, d_out)
  RUN(p_return_in_loop, d_in, d_out)
  RUN(p_local_array, d_in, d_out)
  RUN(p_atomic_nested, d_in, d_out)
  RUN(p_ifelse_in_if, d_in, d_out)
  RUN(p_atomic_max, d_in, d_out)
  RUN(p_atomic_min, d_in, d_out)
  RUN(p_atomic_add_max, d_in, d_out)
  cudaFree(d_in);
  cudaFree(d_out);
  return 0;
}
