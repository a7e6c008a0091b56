// Kernel minicuda had not seen: stencil_halo, a radius-3 1D stencil in shared memory, the first 3 threads loading both halos
// In the style of the CUDA C introduction's 1D stencil.
// Launch: grid 2, block 128; n = 256.
// Recorded on the GPU by tests/fidelity/unseen/branches/record.sh (tests/fidelity/record.sh's
// steps: nvcc -O3 and -G, sm_90, ncu).
#include <cstdio>
#include <cstdlib>

#define RADIUS 3
#define BLOCK 128
__global__ void stencil_halo(int *in, int *out, int n) {
  __shared__ int temp[BLOCK + 2 * RADIUS];
  int g = blockIdx.x * blockDim.x + threadIdx.x;
  int l = threadIdx.x + RADIUS;
  temp[l] = in[g];
  if (threadIdx.x < RADIUS) {
    temp[l - RADIUS] = g >= RADIUS ? in[g - RADIUS] : 0;
    temp[l + BLOCK] = g + BLOCK < n ? in[g + BLOCK] : 0;
  }
  __syncthreads();
  int result = 0;
  for (int offset = -RADIUS; offset <= RADIUS; offset++) result += temp[l + offset];
  out[g] = result;
}

// The host reference.
static void reference(int *in, int *out, int n) {
  for (int g = 0; g < n; g++) {
    int result = 0;
    for (int o = -RADIUS; o <= RADIUS; o++)
      if (g + o >= 0 && g + o < n) result += in[g + o];
    out[g] = result;
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
  stencil_halo<<<grid, block>>>(d_in, d_out, n);
  cudaMemcpy(h_out, d_out, out_size * sizeof(int), cudaMemcpyDeviceToHost);
  int bad = -1;
  for (int i = 0; i < out_size && bad < 0; i++)
    if (h_out[i] != h_ref[i]) bad = i;
  if (bad < 0)
    printf("stencil_halo OK\n");
  else
    printf("stencil_halo FAIL at %d: got %d want %d\n", bad, h_out[bad], h_ref[bad]);
  cudaFree(d_in);
  cudaFree(d_out);
  free(h_in);
  free(h_out);
  free(h_ref);
  return bad < 0 ? 0 : 1;
}
