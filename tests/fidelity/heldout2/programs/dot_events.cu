// The dot product of "CUDA by Example" chapter 5, as a whole program: each block of 256 threads
// multiplies pairs in a grid-stride loop, sums them in a shared cache by a halving tree, and
// writes its partial sum; the host adds the 32 partial sums and compares them with the closed
// form 2 * sum(i^2).  The kernel is timed with CUDA events (the book's chapter 6).
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

#define imin(a, b) (a < b ? a : b)
#define sum_squares(x) (x * (x + 1) * (2 * x + 1) / 6)

const int N = 33 * 1024;
const int threadsPerBlock = 256;
const int blocksPerGrid = imin(32, (N + threadsPerBlock - 1) / threadsPerBlock);

static void HandleError(cudaError_t err, const char *file, int line) {
  if (err != cudaSuccess) {
    printf("%s in %s at line %d\n", cudaGetErrorString(err), file, line);
    exit(EXIT_FAILURE);
  }
}
#define HANDLE_ERROR(err) (HandleError(err, __FILE__, __LINE__))

__global__ void dot(const float *a, const float *b, float *c) {
  __shared__ float cache[threadsPerBlock];
  int tid = threadIdx.x + blockIdx.x * blockDim.x;
  int cacheIndex = threadIdx.x;
  float temp = 0;
  while (tid < N) {
    temp += a[tid] * b[tid];
    tid += blockDim.x * gridDim.x;
  }
  cache[cacheIndex] = temp;
  __syncthreads();
  int i = blockDim.x / 2;
  while (i != 0) {
    if (cacheIndex < i) cache[cacheIndex] += cache[cacheIndex + i];
    __syncthreads();
    i /= 2;
  }
  if (cacheIndex == 0) c[blockIdx.x] = cache[0];
}

int main(void) {
  float *a, *b, c, *partial_c;
  float *dev_a, *dev_b, *dev_partial_c;
  a = (float *)malloc(N * sizeof(float));
  b = (float *)malloc(N * sizeof(float));
  partial_c = (float *)malloc(blocksPerGrid * sizeof(float));
  HANDLE_ERROR(cudaMalloc((void **)&dev_a, N * sizeof(float)));
  HANDLE_ERROR(cudaMalloc((void **)&dev_b, N * sizeof(float)));
  HANDLE_ERROR(cudaMalloc((void **)&dev_partial_c, blocksPerGrid * sizeof(float)));
  for (int i = 0; i < N; i++) {
    a[i] = i;
    b[i] = i * 2;
  }
  HANDLE_ERROR(cudaMemcpy(dev_a, a, N * sizeof(float), cudaMemcpyHostToDevice));
  HANDLE_ERROR(cudaMemcpy(dev_b, b, N * sizeof(float), cudaMemcpyHostToDevice));

  cudaEvent_t start, stop;
  HANDLE_ERROR(cudaEventCreate(&start));
  HANDLE_ERROR(cudaEventCreate(&stop));
  HANDLE_ERROR(cudaEventRecord(start, 0));
  dot<<<blocksPerGrid, threadsPerBlock>>>(dev_a, dev_b, dev_partial_c);
  HANDLE_ERROR(cudaEventRecord(stop, 0));
  HANDLE_ERROR(cudaEventSynchronize(stop));
  float elapsedTime;
  HANDLE_ERROR(cudaEventElapsedTime(&elapsedTime, start, stop));

  HANDLE_ERROR(cudaMemcpy(partial_c, dev_partial_c, blocksPerGrid * sizeof(float), cudaMemcpyDeviceToHost));
  c = 0;
  for (int i = 0; i < blocksPerGrid; i++) c += partial_c[i];
  printf("blocks: %d, threads per block: %d\n", blocksPerGrid, threadsPerBlock);
  printf("partial sums: first %.6g, last %.6g\n", partial_c[0], partial_c[blocksPerGrid - 1]);
  printf("Does GPU value %.6g = %.6g?\n", c, 2 * sum_squares((float)(N - 1)));
  printf("Time to compute dot:  %3.1f ms\n", elapsedTime);

  HANDLE_ERROR(cudaEventDestroy(start));
  HANDLE_ERROR(cudaEventDestroy(stop));
  cudaFree(dev_a);
  cudaFree(dev_b);
  cudaFree(dev_partial_c);
  free(a);
  free(b);
  free(partial_c);
  return 0;
}
