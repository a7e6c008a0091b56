// Held-out kernel scan_double_buffer: the naive (Hillis-Steele) inclusive scan of "GPU Gems 3"
// chapter 39, double-buffered in shared memory: at each step every thread reads the other
// buffer, adds the element `offset` back when it has one, and the buffers swap after a barrier.
// One block of 256 threads scans 256 ints.
#include <cstdio>
#include <cstdlib>

#define N 256

__global__ void scan_double_buffer(const int *in, int *out, int n) {
  __shared__ int temp[2 * N];
  int t = threadIdx.x, pout = 0, pin = 1;
  temp[pout * n + t] = in[t];
  __syncthreads();
  for (int offset = 1; offset < n; offset *= 2) {
    pout = 1 - pout;
    pin = 1 - pout;
    if (t >= offset)
      temp[pout * n + t] = temp[pin * n + t] + temp[pin * n + t - offset];
    else
      temp[pout * n + t] = temp[pin * n + t];
    __syncthreads();
  }
  out[t] = temp[pout * n + t];
}

int main() {
  int h[N], got[N];
  for (int i = 0; i < N; i++) h[i] = (i * 29) % 11 - 5;
  int *din, *dout;
  cudaMalloc(&din, N * sizeof(int));
  cudaMalloc(&dout, N * sizeof(int));
  cudaMemcpy(din, h, N * sizeof(int), cudaMemcpyHostToDevice);
  scan_double_buffer<<<1, N>>>(din, dout, N);
  cudaMemcpy(got, dout, N * sizeof(int), cudaMemcpyDeviceToHost);
  int bad = 0, sum = 0;
  for (int i = 0; i < N; i++) {
    sum += h[i];
    bad += got[i] != sum;
  }
  printf("scan_double_buffer %s\n", bad == 0 ? "OK" : "FAIL");
  cudaFree(din);
  cudaFree(dout);
  return bad != 0;
}
