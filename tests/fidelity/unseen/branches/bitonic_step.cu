// Kernel minicuda had not seen: bitonic_step, one step (j = 4, k = 8) of a bitonic sort in global memory, the swap's direction from (i & k)
// In the style of the CUDA samples' bitonic sort.
// Launch: grid 2, block 128; n = 256.
// Recorded on the GPU by tests/fidelity/unseen/branches/record.sh (tests/fidelity/record.sh's
// steps: nvcc -O3 and -G, sm_90, ncu).
#include <cstdio>
#include <cstdlib>

__global__ void bitonic_step(int *in, int *a, int n) {
  const int j = 4, k = 8;
  unsigned int i = threadIdx.x + blockDim.x * blockIdx.x;
  unsigned int ixj = i ^ j;
  if (ixj > i) {
    if ((i & k) == 0) {
      if (a[i] > a[ixj]) { int t = a[i]; a[i] = a[ixj]; a[ixj] = t; }
    } else {
      if (a[i] < a[ixj]) { int t = a[i]; a[i] = a[ixj]; a[ixj] = t; }
    }
  }
}

// The host reference.
static void reference(int *in, int *a, int n) {
  const int j = 4, k = 8;
  for (int i = 0; i < n; i++) {
    int ixj = i ^ j;
    if (ixj > i) {
      bool up = (i & k) == 0;
      if ((up && a[i] > a[ixj]) || (!up && a[i] < a[ixj])) { int t = a[i]; a[i] = a[ixj]; a[ixj] = t; }
    }
  }
}

int main() {
  const int n = 256, size = 256, out_size = 256;
  int *h_in = (int *)malloc(size * sizeof(int));
  int *h_out = (int *)malloc(out_size * sizeof(int));
  int *h_ref = (int *)malloc(out_size * sizeof(int));
  for (int i = 0; i < size; i++) h_in[i] = ((i * 37 + 11) % 23) - 7;
  for (int i = 0; i < out_size; i++) h_ref[i] = ((i * 37 + 11) % 23) - 7;
  reference(h_in, h_ref, n);
  int *d_in, *d_out;
  cudaMalloc(&d_in, size * sizeof(int));
  cudaMalloc(&d_out, out_size * sizeof(int));
  cudaMemcpy(d_in, h_in, size * sizeof(int), cudaMemcpyHostToDevice);
  for (int i = 0; i < out_size; i++) h_out[i] = ((i * 37 + 11) % 23) - 7;
  cudaMemcpy(d_out, h_out, out_size * sizeof(int), cudaMemcpyHostToDevice);
  dim3 grid(2), block(128);
  bitonic_step<<<grid, block>>>(d_in, d_out, n);
  cudaMemcpy(h_out, d_out, out_size * sizeof(int), cudaMemcpyDeviceToHost);
  int bad = -1;
  for (int i = 0; i < out_size && bad < 0; i++)
    if (h_out[i] != h_ref[i]) bad = i;
  if (bad < 0)
    printf("bitonic_step OK\n");
  else
    printf("bitonic_step FAIL at %d: got %d want %d\n", bad, h_out[bad], h_ref[bad]);
  cudaFree(d_in);
  cudaFree(d_out);
  free(h_in);
  free(h_out);
  free(h_ref);
  return bad < 0 ? 0 : 1;
}
