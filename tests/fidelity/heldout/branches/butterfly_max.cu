// Held-out kernel butterfly_max: a butterfly (XOR) all-reduce within each warp with
// __shfl_xor_sync, every lane ending with its warp's maximum and sum; lane 0 writes them.
// One launch: grid 2, block 128.
#include <cstdio>

__global__ void butterfly_max(const int *in, int *wmax, int *wsum) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int m = in[i], s = in[i];
  for (int mask = 16; mask >= 1; mask /= 2) {
    int om = __shfl_xor_sync(0xffffffff, m, mask);
    s += __shfl_xor_sync(0xffffffff, s, mask);
    if (om > m) m = om;
  }
  if ((threadIdx.x % 32) == 0) {
    wmax[i / 32] = m;
    wsum[i / 32] = s;
  }
}

int main() {
  const int n = 256, warps = n / 32;
  int h_in[n], h_max[warps], h_sum[warps];
  for (int i = 0; i < n; i++) h_in[i] = (i * 53 + 7) % 101 - 50;
  int *d_in, *d_max, *d_sum;
  cudaMalloc(&d_in, sizeof(h_in));
  cudaMalloc(&d_max, sizeof(h_max));
  cudaMalloc(&d_sum, sizeof(h_sum));
  cudaMemcpy(d_in, h_in, sizeof(h_in), cudaMemcpyHostToDevice);
  butterfly_max<<<2, 128>>>(d_in, d_max, d_sum);
  cudaMemcpy(h_max, d_max, sizeof(h_max), cudaMemcpyDeviceToHost);
  cudaMemcpy(h_sum, d_sum, sizeof(h_sum), cudaMemcpyDeviceToHost);
  int bad = 0;
  for (int w = 0; w < warps; w++) {
    int m = h_in[w * 32], s = 0;
    for (int l = 0; l < 32; l++) {
      if (h_in[w * 32 + l] > m) m = h_in[w * 32 + l];
      s += h_in[w * 32 + l];
    }
    if (m != h_max[w] || s != h_sum[w]) bad++;
  }
  printf(bad ? "butterfly_max FAIL\n" : "butterfly_max OK\n");
  cudaFree(d_in); cudaFree(d_max); cudaFree(d_sum);
  return bad;
}
