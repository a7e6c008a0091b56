// Held-out kernel opcode_switch: a tiny interpreter, each thread applying the operation named
// by its opcode (a switch of five cases and a default) to two operands.
// One launch: grid 2, block 128.
#include <cstdio>

__global__ void opcode_switch(const int *op, const int *a, const int *b, int *r) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int x = a[i], y = b[i], res;
  switch (op[i]) {
    case 0: res = x + y; break;
    case 1: res = x - y; break;
    case 2: res = x * y; break;
    case 3: res = x & y; break;
    case 4: res = x << (y & 7); break;
    default: res = 0; break;
  }
  r[i] = res;
}

static int apply(int op, int x, int y) {
  switch (op) {
    case 0: return x + y;
    case 1: return x - y;
    case 2: return x * y;
    case 3: return x & y;
    case 4: return x << (y & 7);
    default: return 0;
  }
}

int main() {
  const int n = 256;
  int h_op[n], h_a[n], h_b[n], h_r[n];
  for (int i = 0; i < n; i++) {
    h_op[i] = (i / 8 + i) % 7;
    h_a[i] = i % 19 + 1;
    h_b[i] = (i * 3) % 11;
  }
  int *d_op, *d_a, *d_b, *d_r;
  cudaMalloc(&d_op, sizeof(h_op));
  cudaMalloc(&d_a, sizeof(h_a));
  cudaMalloc(&d_b, sizeof(h_b));
  cudaMalloc(&d_r, sizeof(h_r));
  cudaMemcpy(d_op, h_op, sizeof(h_op), cudaMemcpyHostToDevice);
  cudaMemcpy(d_a, h_a, sizeof(h_a), cudaMemcpyHostToDevice);
  cudaMemcpy(d_b, h_b, sizeof(h_b), cudaMemcpyHostToDevice);
  opcode_switch<<<2, 128>>>(d_op, d_a, d_b, d_r);
  cudaMemcpy(h_r, d_r, sizeof(h_r), cudaMemcpyDeviceToHost);
  int first_bad = -1;
  for (int i = n - 1; i >= 0; i--)
    if (h_r[i] != apply(h_op[i], h_a[i], h_b[i])) first_bad = i;
  if (first_bad < 0) printf("opcode_switch OK\n");
  else printf("opcode_switch FAIL at %d\n", first_bad);
  cudaFree(d_op); cudaFree(d_a); cudaFree(d_b); cudaFree(d_r);
  return first_bad >= 0;
}
