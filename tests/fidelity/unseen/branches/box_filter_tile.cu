// Kernel minicuda had not seen: box_filter_tile, a 4 x 4 box filter over a 16 x 16 image: a nested loop over the tile, each tap bounds-checked
// In the style of a textbook's image-blur exercise.
// Launch: grid 2, block 16, 8; n = 256.
// Recorded on the GPU by tests/fidelity/unseen/branches/record.sh (tests/fidelity/record.sh's
// steps: nvcc -O3 and -G, sm_90, ncu).
#include <cstdio>
#include <cstdlib>

#define W 16
__global__ void box_filter_tile(int *in, int *out, int n) {
  int x = threadIdx.x, y = blockIdx.x * 8 + threadIdx.y;
  int sum = 0;
  for (int dy = 0; dy < 4; dy++)
    for (int dx = 0; dx < 4; dx++)
      if (x + dx < W && y + dy < W) sum += in[(y + dy) * W + x + dx];
  out[y * W + x] = sum;
}

// The host reference.
static void reference(int *in, int *out, int n) {
  for (int y = 0; y < W; y++)
    for (int x = 0; x < W; x++) {
      int sum = 0;
      for (int dy = 0; dy < 4; dy++)
        for (int dx = 0; dx < 4; dx++)
          if (x + dx < W && y + dy < W) sum += in[(y + dy) * W + x + dx];
      out[y * W + x] = sum;
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
  dim3 grid(2), block(16, 8);
  box_filter_tile<<<grid, block>>>(d_in, d_out, n);
  cudaMemcpy(h_out, d_out, out_size * sizeof(int), cudaMemcpyDeviceToHost);
  int bad = -1;
  for (int i = 0; i < out_size && bad < 0; i++)
    if (h_out[i] != h_ref[i]) bad = i;
  if (bad < 0)
    printf("box_filter_tile OK\n");
  else
    printf("box_filter_tile FAIL at %d: got %d want %d\n", bad, h_out[bad], h_ref[bad]);
  cudaFree(d_in);
  cudaFree(d_out);
  free(h_in);
  free(h_out);
  free(h_ref);
  return bad < 0 ? 0 : 1;
}
