// Fidelity kernel select_float: x = c ? a : b on floats, arms with arithmetic
// Launch: 2 block(s) of 128 threads, n = 256, mode = 1.
// Recorded on the GPU by tests/fidelity/record.sh (nvcc -O3 and -G, sm_90).
#include <cstdio>
#include <cstdlib>

typedef float elem_t;

__global__ void select_float(elem_t *in, elem_t *out, int n, int mode) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  float a = in[t];
  float x = (a > 0.0f) ? a * 2.0f : a * -0.5f;
  out[t] = x;
}

// The host reference: the kernel's body for one thread.
static void reference_thread(int t, elem_t *in, elem_t *out, int n, int mode) {
  float a = in[t];
  float x = (a > 0.0f) ? a * 2.0f : a * -0.5f;
  out[t] = x;
}

static void reference(elem_t *in, elem_t *out, int n, int mode, int blocks, int threads) {
  for (int t = 0; t < blocks * threads; t++)
    reference_thread(t, in, out, n, mode);
}

int main() {
  const int blocks = 2, threads = 128, total = blocks * threads;
  const int n = 256, mode = 1;
  const int size = total > n ? total : n;
  elem_t *h_in = (elem_t *)malloc(size * sizeof(elem_t));
  elem_t *h_out = (elem_t *)malloc(size * sizeof(elem_t));
  elem_t *h_ref = (elem_t *)malloc(size * sizeof(elem_t));
  for (int i = 0; i < size; i++) {
    h_in[i] = (elem_t)(((i * 37 + 11) % 23) - 7);
    h_ref[i] = (elem_t)0;
  }
  reference(h_in, h_ref, n, mode, blocks, threads);
  elem_t *d_in, *d_out;
  cudaMalloc(&d_in, size * sizeof(elem_t));
  cudaMalloc(&d_out, size * sizeof(elem_t));
  cudaMemcpy(d_in, h_in, size * sizeof(elem_t), cudaMemcpyHostToDevice);
  cudaMemset(d_out, 0, size * sizeof(elem_t));
  select_float<<<blocks, threads>>>(d_in, d_out, n, mode);
  cudaMemcpy(h_out, d_out, size * sizeof(elem_t), cudaMemcpyDeviceToHost);
  int bad = -1;
  for (int i = 0; i < size && bad < 0; i++)
    if (h_out[i] != h_ref[i]) bad = i;
  if (bad < 0)
    printf("select_float OK\n");
  else
    printf("select_float FAIL at %d: got %g want %g\n", bad, (double)h_out[bad], (double)h_ref[bad]);
  cudaFree(d_in);
  cudaFree(d_out);
  free(h_in);
  free(h_out);
  free(h_ref);
  return bad < 0 ? 0 : 1;
}
