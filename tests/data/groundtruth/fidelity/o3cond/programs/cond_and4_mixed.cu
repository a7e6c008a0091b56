// Probe cond_and4_mixed (tests/data/groundtruth/fidelity/o3cond/make_probes.py wrote it): one launch,
// grid 2, block 128, checked against the same code run on the host.
#include <cstdio>

__global__ void cond_and4_mixed(int *in, int *out, int n) {
  int t = threadIdx.x;
  int i = blockIdx.x * blockDim.x + t;
  int v = in[i];
  int k = 0;
  if (v > 5 && (t & 3) != 1 && v != 17 && (t ^ v) > 9) k = 1;
  out[i] = k;
}

int main() {
  const int n = 256;
  int h_in[2 * n + 2], h_out[3 * n], ref[3 * n];
  for (int j = 0; j < 2 * n + 2; j++) h_in[j] = (j * 37) % 61;
  for (int j = 0; j < 3 * n; j++) ref[j] = 0;
  int *d_in, *d_out;
  cudaMalloc(&d_in, sizeof(h_in));
  cudaMalloc(&d_out, sizeof(h_out));
  cudaMemcpy(d_in, h_in, sizeof(h_in), cudaMemcpyHostToDevice);
  cudaMemcpy(d_out, ref, sizeof(ref), cudaMemcpyHostToDevice);
  cond_and4_mixed<<<2, 128>>>(d_in, d_out, n);
  cudaMemcpy(h_out, d_out, sizeof(h_out), cudaMemcpyDeviceToHost);
  for (int b = 0; b < 2; b++) {
    for (int t = 0; t < 128; t++) {
      int *in = h_in, *out = ref;
      int i = b * 128 + t;
      int v = in[i];
      int k = 0;
      if (v > 5 && (t & 3) != 1 && v != 17 && (t ^ v) > 9) k = 1;
      out[i] = k;
    }
  }
  int bad = 0;
  for (int j = 0; j < 3 * n; j++) bad += h_out[j] != ref[j];
  printf("cond_and4_mixed %s\n", bad == 0 ? "OK" : "FAIL");
  cudaFree(d_in);
  cudaFree(d_out);
  return bad != 0;
}
