// Probe chain_store_2 (tests/data/groundtruth/fidelity/o3cond/make_probes.py wrote it): one launch,
// grid 2, block 128, checked against the same code run on the host.
#include <cstdio>

__global__ void chain_store_2(int *in, int *out, int n) {
  int t = threadIdx.x;
  int i = blockIdx.x * blockDim.x + t;
  int v = in[i];
  if ((t & 31) < 8) out[i] = v + 1;
  else out[i] = v * 3;
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
  chain_store_2<<<2, 128>>>(d_in, d_out, n);
  cudaMemcpy(h_out, d_out, sizeof(h_out), cudaMemcpyDeviceToHost);
  for (int b = 0; b < 2; b++) {
    for (int t = 0; t < 128; t++) {
      int *in = h_in, *out = ref;
      int i = b * 128 + t;
      int v = in[i];
      if ((t & 31) < 8) out[i] = v + 1;
      else out[i] = v * 3;
    }
  }
  int bad = 0;
  for (int j = 0; j < 3 * n; j++) bad += h_out[j] != ref[j];
  printf("chain_store_2 %s\n", bad == 0 ? "OK" : "FAIL");
  cudaFree(d_in);
  cudaFree(d_out);
  return bad != 0;
}
