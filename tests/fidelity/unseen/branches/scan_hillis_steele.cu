// Kernel minicuda had not seen: scan_hillis_steele, an inclusive Hillis-Steele scan of each 128-element block in shared memory
// In the style of a course's parallel prefix-sum exercise.
// Launch: grid 2, block 128; n = 256.
// Recorded on the GPU by tests/fidelity/unseen/branches/record.sh (tests/fidelity/record.sh's
// steps: nvcc -O3 and -G, sm_90, ncu).
#include <cstdio>
#include <cstdlib>

__global__ void scan_hillis_steele(int *in, int *out, int n) {
  __shared__ int s[128];
  int t = threadIdx.x;
  s[t] = in[blockIdx.x * blockDim.x + t];
  __syncthreads();
  for (int offset = 1; offset < blockDim.x; offset *= 2) {
    int v = 0;
    if (t >= offset) v = s[t - offset];
    __syncthreads();
    s[t] += v;
    __syncthreads();
  }
  out[blockIdx.x * blockDim.x + t] = s[t];
}

// The host reference.
static void reference(int *in, int *out, int n) {
  for (int b = 0; b < n / 128; b++) {
    int sum = 0;
    for (int t = 0; t < 128; t++) out[b * 128 + t] = (sum += in[b * 128 + t]);
  }
}

int main() {
  const int n = 256, size = 256, out_size = 256;
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
  scan_hillis_steele<<<grid, block>>>(d_in, d_out, n);
  cudaMemcpy(h_out, d_out, out_size * sizeof(int), cudaMemcpyDeviceToHost);
  int bad = -1;
  for (int i = 0; i < out_size && bad < 0; i++)
    if (h_out[i] != h_ref[i]) bad = i;
  if (bad < 0)
    printf("scan_hillis_steele OK\n");
  else
    printf("scan_hillis_steele FAIL at %d: got %d want %d\n", bad, h_out[bad], h_ref[bad]);
  cudaFree(d_in);
  cudaFree(d_out);
  free(h_in);
  free(h_out);
  free(h_ref);
  return bad < 0 ? 0 : 1;
}
