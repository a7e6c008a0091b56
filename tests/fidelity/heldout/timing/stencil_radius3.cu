// The 1D stencil of NVIDIA's "CUDA C/C++ Basics" introduction, radius 3: each output is the
// sum of the 7 inputs around it.  stencilGlobal reads all 7 from global memory (through the
// L1), stencilShared stages the block's inputs and halo in shared memory first.
// 65,536 outputs, 256 threads per block.
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

#define RADIUS 3
#define BLOCK_SIZE 256
#define N (1 << 16)

__global__ void stencilGlobal(const int *in, int *out) {
  int gindex = blockIdx.x * blockDim.x + threadIdx.x + RADIUS;
  int result = 0;
  for (int offset = -RADIUS; offset <= RADIUS; offset++) result += in[gindex + offset];
  out[gindex - RADIUS] = result;
}

__global__ void stencilShared(const int *in, int *out) {
  __shared__ int temp[BLOCK_SIZE + 2 * RADIUS];
  int gindex = blockIdx.x * blockDim.x + threadIdx.x + RADIUS;
  int lindex = threadIdx.x + RADIUS;
  temp[lindex] = in[gindex];
  if (threadIdx.x < RADIUS) {
    temp[lindex - RADIUS] = in[gindex - RADIUS];
    temp[lindex + BLOCK_SIZE] = in[gindex + BLOCK_SIZE];
  }
  __syncthreads();
  int result = 0;
  for (int offset = -RADIUS; offset <= RADIUS; offset++) result += temp[lindex + offset];
  out[gindex - RADIUS] = result;
}

static int errors(const int *in, const int *out) {
  int bad = 0;
  for (int i = 0; i < N; i++) {
    int s = 0;
    for (int o = -RADIUS; o <= RADIUS; o++) s += in[i + RADIUS + o];
    bad += s != out[i];
  }
  return bad;
}

int main(void) {
  int *h_in = (int *)malloc((N + 2 * RADIUS) * sizeof(int)), *h_out = (int *)malloc(N * sizeof(int));
  for (int i = 0; i < N + 2 * RADIUS; i++) h_in[i] = i % 9;
  int *d_in, *d_out;
  cudaMalloc(&d_in, (N + 2 * RADIUS) * sizeof(int));
  cudaMalloc(&d_out, N * sizeof(int));
  cudaMemcpy(d_in, h_in, (N + 2 * RADIUS) * sizeof(int), cudaMemcpyHostToDevice);
  stencilGlobal<<<N / BLOCK_SIZE, BLOCK_SIZE>>>(d_in, d_out);
  cudaMemcpy(h_out, d_out, N * sizeof(int), cudaMemcpyDeviceToHost);
  printf("stencilGlobal: %d errors\n", errors(h_in, h_out));
  cudaMemset(d_out, 0, N * sizeof(int));
  stencilShared<<<N / BLOCK_SIZE, BLOCK_SIZE>>>(d_in, d_out);
  cudaMemcpy(h_out, d_out, N * sizeof(int), cudaMemcpyDeviceToHost);
  printf("stencilShared: %d errors\n", errors(h_in, h_out));
  cudaFree(d_in);
  cudaFree(d_out);
  free(h_in);
  free(h_out);
  return 0;
}
