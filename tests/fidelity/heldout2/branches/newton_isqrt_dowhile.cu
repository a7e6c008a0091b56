// Held-out kernel newton_isqrt_dowhile: the integer square root by Newton's iteration in a
// do-while loop that stops when the estimate stops decreasing (numerical-methods exercises): a
// data-dependent trip count, values 0 and 1 handled by an early branch.  400 values.
// Launch: grid 2, block 200.
#include <cstdio>
#include <cstdlib>

__global__ void newton_isqrt_dowhile(const unsigned int *in, unsigned int *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  unsigned int a = in[i], x = a, y;
  if (a > 1) {
    y = (x + a / x) / 2;
    do {
      x = y;
      y = (x + a / x) / 2;
    } while (y < x);
  }
  out[i] = x;
}

int main() {
  const int n = 400;
  unsigned int in[n], got[n];
  for (int i = 0; i < n; i++) in[i] = i < 3 ? i : (unsigned int)i * i * 37u + (unsigned int)(i * 7919) % 1000u;
  unsigned int *din, *dout;
  cudaMalloc(&din, sizeof(in));
  cudaMalloc(&dout, sizeof(got));
  cudaMemcpy(din, in, sizeof(in), cudaMemcpyHostToDevice);
  newton_isqrt_dowhile<<<2, 200>>>(din, dout, n);
  cudaMemcpy(got, dout, sizeof(got), cudaMemcpyDeviceToHost);
  int bad = 0;
  for (int i = 0; i < n; i++) {
    unsigned long long r = got[i];
    bad += !(r * r <= in[i] && (r + 1) * (r + 1) > in[i]);
  }
  printf("newton_isqrt_dowhile %s\n", bad == 0 ? "OK" : "FAIL");
  cudaFree(din);
  cudaFree(dout);
  return bad != 0;
}
