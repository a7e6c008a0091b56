// The GPU side: saxpy and a shared-memory sum reduction, checked against the CPU
// reference in saxpy_reduce_cpu.cpp (built as `nvcc saxpy_reduce.cu saxpy_reduce_cpu.cpp`).
#include <stdio.h>
#include <stdlib.h>
#include "saxpy_reduce.h"

#define CHECK(call)                                                         \
  do {                                                                      \
    cudaError_t err = (call);                                               \
    if (err != cudaSuccess) {                                               \
      printf("CUDA error %d at %s:%d\n", (int)err, __FILE__, __LINE__);     \
      exit(1);                                                              \
    }                                                                       \
  } while (0)

static int launches = 0;   // this unit's own; the CPU unit has its own static of the name

__global__ void saxpy(int n, float a, const float *x, float *y) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = a * x[i] + y[i];
}

__global__ void block_sum(const int *in, long long *out, int n) {
  __shared__ int tile[BLOCK];
  int tid = threadIdx.x;
  int i = blockIdx.x * blockDim.x + tid;
  tile[tid] = i < n ? in[i] : 0;
  __syncthreads();
  for (int stride = blockDim.x / 2; stride > 0; stride >>= 1) {
    if (tid < stride) tile[tid] += tile[tid + stride];
    __syncthreads();
  }
  if (tid == 0) atomicAdd((unsigned long long *)out, (unsigned long long)tile[0]);
}

int main(int argc, char **argv) {
  int n = argc > 1 ? atoi(argv[1]) : 1000;
  size_t fbytes = n * sizeof(float), ibytes = n * sizeof(int);
  float *x = (float *)malloc(fbytes), *y = (float *)malloc(fbytes), *ref = (float *)malloc(fbytes);
  int *v = (int *)malloc(ibytes);
  for (int i = 0; i < n; i++) {
    x[i] = (i % 17) * 0.25f;
    y[i] = ref[i] = (i % 5) - 2.0f;
    v[i] = (i * 7) % 101 - 50;
  }
  float *dx, *dy;
  int *dv;
  long long *dsum, gpu_sum = 0;
  CHECK(cudaMalloc(&dx, fbytes));
  CHECK(cudaMalloc(&dy, fbytes));
  CHECK(cudaMalloc(&dv, ibytes));
  CHECK(cudaMalloc(&dsum, sizeof(long long)));
  CHECK(cudaMemcpy(dx, x, fbytes, cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(dy, y, fbytes, cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(dv, v, ibytes, cudaMemcpyHostToDevice));
  CHECK(cudaMemset(dsum, 0, sizeof(long long)));
  int grid = (n + BLOCK - 1) / BLOCK;
  saxpy<<<grid, BLOCK>>>(n, 2.5f, dx, dy);
  launches++;
  block_sum<<<grid, BLOCK>>>(dv, dsum, n);
  launches++;
  CHECK(cudaGetLastError());
  CHECK(cudaMemcpy(y, dy, fbytes, cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(&gpu_sum, dsum, sizeof(long long), cudaMemcpyDeviceToHost));

  saxpy_cpu(n, 2.5f, x, ref);
  long long cpu_sum = sum_cpu(v, n);
  int bad = compare_results(y, ref, n, 1e-5f);
  printf("n = %d, grid = %d, block = %d, kernels launched = %d\n", n, grid, BLOCK, launches);
  printf("saxpy: %s (%d mismatches), y[1] = %.2f, y[n-1] = %.2f\n", bad ? "FAIL" : "PASS", bad, y[1], y[n - 1]);
  printf("sum: gpu %lld, cpu %lld: %s\n", gpu_sum, cpu_sum, gpu_sum == cpu_sum ? "PASS" : "FAIL");
  printf("CPU reference calls: %d\n", cpu_calls);
  cudaFree(dx); cudaFree(dy); cudaFree(dv); cudaFree(dsum);
  free(x); free(y); free(ref); free(v);
  return bad || gpu_sum != cpu_sum;
}
