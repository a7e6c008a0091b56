#include <cstdio>
#include <climits>
__global__ void divs(const int *a, const int *b, int *q, int *r, int n) {
  int i = threadIdx.x; if (i < n) { q[i] = a[i] / b[i]; r[i] = a[i] % b[i]; }
}
__global__ void divu(const unsigned *a, const unsigned *b, unsigned *q, unsigned *r, int n) {
  int i = threadIdx.x; if (i < n) { q[i] = a[i] / b[i]; r[i] = a[i] % b[i]; }
}
__global__ void divl(const long long *a, const long long *b, long long *q, long long *r, int n) {
  int i = threadIdx.x; if (i < n) { q[i] = a[i] / b[i]; r[i] = a[i] % b[i]; }
}
__global__ void divul(const unsigned long long *a, const unsigned long long *b, unsigned long long *q, unsigned long long *r, int n) {
  int i = threadIdx.x; if (i < n) { q[i] = a[i] / b[i]; r[i] = a[i] % b[i]; }
}
template <typename T, typename K>
void run(const char *name, K kern, const T *ha, const T *hb, int n, const char *fmt) {
  T *a, *b, *q, *r; size_t s = n * sizeof(T);
  cudaMalloc(&a, s); cudaMalloc(&b, s); cudaMalloc(&q, s); cudaMalloc(&r, s);
  cudaMemcpy(a, ha, s, cudaMemcpyHostToDevice); cudaMemcpy(b, hb, s, cudaMemcpyHostToDevice);
  kern<<<1, 32>>>(a, b, q, r, n);
  cudaError_t e = cudaDeviceSynchronize();
  T hq[16], hr[16];
  cudaMemcpy(hq, q, s, cudaMemcpyDeviceToHost); cudaMemcpy(hr, r, s, cudaMemcpyDeviceToHost);
  printf("%s: %s\n", name, cudaGetErrorString(e));
  for (int i = 0; i < n; i++) { printf("  "); printf(fmt, ha[i], hb[i], hq[i], hr[i]); printf("\n"); }
}
int main() {
  int a[] = {7, -7, 0, INT_MIN, INT_MAX, INT_MIN, 1};
  int b[] = {0, 0, 0, 0, 0, -1, 0};
  run<int>("int", divs, a, b, 7, "%d / %d = %d rem %d");
  unsigned ua[] = {7u, 0u, 0xffffffffu, 0x80000000u};
  unsigned ub[] = {0u, 0u, 0u, 0u};
  run<unsigned>("unsigned", divu, ua, ub, 4, "%u / %u = %u rem %u");
  long long la[] = {7, -7, 0, LLONG_MIN, LLONG_MAX, LLONG_MIN};
  long long lb[] = {0, 0, 0, 0, 0, -1};
  run<long long>("long long", divl, la, lb, 6, "%lld / %lld = %lld rem %lld");
  unsigned long long ula[] = {7, 0, ~0ull};
  unsigned long long ulb[] = {0, 0, 0};
  run<unsigned long long>("unsigned long long", divul, ula, ulb, 3, "%llu / %llu = %llu rem %llu");
  printf("timeout: %s / %s\n", cudaGetErrorName(cudaErrorLaunchTimeout), cudaGetErrorString(cudaErrorLaunchTimeout));
  printf("memalloc: %s / %s\n", cudaGetErrorName(cudaErrorMemoryAllocation), cudaGetErrorString(cudaErrorMemoryAllocation));
  return 0;
}
