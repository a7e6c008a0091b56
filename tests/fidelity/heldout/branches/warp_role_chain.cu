// Held-out kernel warp_role_chain: an if-else-if chain on threadIdx.x giving each group of
// threads of a block its own job (producer / scaler / negator / copier), the pattern of a
// warp-specialisation lecture.  One launch: grid 2, block 128.
#include <cstdio>

__global__ void warp_role_chain(const int *in, int *out) {
  int t = threadIdx.x;
  int i = blockIdx.x * blockDim.x + t;
  int v = in[i];
  if (t < 32) {
    out[i] = v + 1;
  } else if (t < 48) {
    out[i] = v * 3;
  } else if (t < 96) {
    out[i] = -v;
  } else {
    out[i] = v;
  }
}

int main() {
  const int n = 256;
  int h_in[n], h_out[n];
  for (int i = 0; i < n; i++) h_in[i] = (i * 5 + 3) % 17;
  int *d_in, *d_out;
  cudaMalloc(&d_in, sizeof(h_in));
  cudaMalloc(&d_out, sizeof(h_out));
  cudaMemcpy(d_in, h_in, sizeof(h_in), cudaMemcpyHostToDevice);
  warp_role_chain<<<2, 128>>>(d_in, d_out);
  cudaMemcpy(h_out, d_out, sizeof(h_out), cudaMemcpyDeviceToHost);
  bool ok = true;
  for (int i = 0; i < n; i++) {
    int t = i % 128, want;
    if (t < 32) want = h_in[i] + 1;
    else if (t < 48) want = h_in[i] * 3;
    else if (t < 96) want = -h_in[i];
    else want = h_in[i];
    if (h_out[i] != want) ok = false;
  }
  printf(ok ? "warp_role_chain OK\n" : "warp_role_chain FAIL\n");
  cudaFree(d_in);
  cudaFree(d_out);
  return ok ? 0 : 1;
}
