// Kernel minicuda had not seen: clamp_min_max, a clamp of each element to [-3, 5] with min and max, then a scale
// In the style of a course's element-wise exercise.
// Launch: grid 2, block 128; n = 250.
// Recorded on the GPU by tests/fidelity/unseen/branches/record.sh (tests/fidelity/record.sh's
// steps: nvcc -O3 and -G, sm_90, ncu).
#include <cstdio>
#include <cstdlib>

__global__ void clamp_min_max(int *in, int *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = 2 * min(max(in[i], -3), 5);
}

// The host reference.
static void reference(int *in, int *out, int n) {
  for (int i = 0; i < n; i++) {
    int v = in[i] < -3 ? -3 : in[i];
    out[i] = 2 * (v > 5 ? 5 : v);
  }
}

int main() {
  const int n = 250, size = 256, out_size = 256;
  int *h_in = (int *)malloc(size * sizeof(int));
  int *h_out = (int *)malloc(out_size * sizeof(int));
  int *h_ref = (int *)malloc(out_size * sizeof(int));
  for (int i = 0; i < size; i++) h_in[i] = ((i * 37 + 11) % 23) - 7;
  for (int i = 0; i < out_size; i++) h_ref[i] = 0;
  reference(h_in, h_ref, n);
  int *d_in, *d_out;
  cudaMalloc(&d_in, size * sizeof(int));
  cudaMalloc(&d_out, out_size * sizeof(int));
  cudaMemcpy(d_in, h_in, size * sizeof(int), cudaMemcpyHostToDevice);
  for (int i = 0; i < out_size; i++) h_out[i] = 0;
  cudaMemcpy(d_out, h_out, out_size * sizeof(int), cudaMemcpyHostToDevice);
  dim3 grid(2), block(128);
  clamp_min_max<<<grid, block>>>(d_in, d_out, n);
  cudaMemcpy(h_out, d_out, out_size * sizeof(int), cudaMemcpyDeviceToHost);
  int bad = -1;
  for (int i = 0; i < out_size && bad < 0; i++)
    if (h_out[i] != h_ref[i]) bad = i;
  if (bad < 0)
    printf("clamp_min_max OK\n");
  else
    printf("clamp_min_max FAIL at %d: got %d want %d\n", bad, h_out[bad], h_ref[bad]);
  cudaFree(d_in);
  cudaFree(d_out);
  free(h_in);
  free(h_out);
  free(h_ref);
  return bad < 0 ? 0 : 1;
}
