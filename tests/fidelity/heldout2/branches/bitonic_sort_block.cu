// Held-out kernel bitonic_sort_block: a whole bitonic sort of 512 keys in shared memory by one
// block of 256 threads (the CUDA samples' sortingNetworks style: every thread owns a pair per
// step): nested loops over the merge size and the stride, each step a compare-exchange whose
// direction depends on the pair's position, barriers between steps.
// Launch: grid 1, block 256; 512 keys.
#include <cstdio>
#include <cstdlib>

#define KEYS 512

__device__ inline void cmp_exchange(unsigned int &a, unsigned int &b, bool ascending) {
  if ((a > b) == ascending) {
    unsigned int t = a;
    a = b;
    b = t;
  }
}

__global__ void bitonic_sort_block(unsigned int *keys) {
  __shared__ unsigned int s[KEYS];
  s[threadIdx.x] = keys[threadIdx.x];
  s[threadIdx.x + KEYS / 2] = keys[threadIdx.x + KEYS / 2];
  for (unsigned int size = 2; size <= KEYS; size <<= 1) {
    bool ascending = (threadIdx.x & (size / 2)) == 0;
    for (unsigned int stride = size / 2; stride > 0; stride >>= 1) {
      __syncthreads();
      unsigned int pos = 2 * threadIdx.x - (threadIdx.x & (stride - 1));
      cmp_exchange(s[pos], s[pos + stride], ascending);
    }
  }
  __syncthreads();
  keys[threadIdx.x] = s[threadIdx.x];
  keys[threadIdx.x + KEYS / 2] = s[threadIdx.x + KEYS / 2];
}

static int cmp(const void *a, const void *b) {
  unsigned int x = *(const unsigned int *)a, y = *(const unsigned int *)b;
  return x < y ? -1 : x > y;
}

int main() {
  unsigned int h[KEYS], ref[KEYS];
  unsigned int seed = 12345;
  for (int i = 0; i < KEYS; i++) {
    seed = seed * 1103515245u + 12345u;
    h[i] = ref[i] = (seed >> 8) % 10000;
  }
  qsort(ref, KEYS, sizeof(unsigned int), cmp);
  unsigned int *d;
  cudaMalloc(&d, sizeof(h));
  cudaMemcpy(d, h, sizeof(h), cudaMemcpyHostToDevice);
  bitonic_sort_block<<<1, KEYS / 2>>>(d);
  cudaMemcpy(h, d, sizeof(h), cudaMemcpyDeviceToHost);
  int bad = 0;
  for (int i = 0; i < KEYS; i++) bad += h[i] != ref[i];
  printf("bitonic_sort_block %s\n", bad == 0 ? "OK" : "FAIL");
  cudaFree(d);
  return bad != 0;
}
