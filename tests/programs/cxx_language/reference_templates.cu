// Function templates with reference parameters, references returned from functions and
// through pointers, __device__ functions taking references, enum class in a switch.
#include <cstdio>
template <typename T> void swapT(T &a, T &b) { T t = a; a = b; b = t; }
template <typename T> __host__ __device__ const T &maxT(const T &a, const T &b) { return a < b ? b : a; }
int table[4] = {1, 2, 3, 4};
int &slot(int i) { return table[i]; }
__device__ void accumulate(float &acc, const float &v) { acc += v; }
__global__ void k(float *out, const float *in) {
  float acc = 0.0f;
  for (int i = 0; i < 4; i++) accumulate(acc, in[i]);
  out[threadIdx.x] = maxT(acc, 5.0f) + threadIdx.x;
}
enum class Op { Add, Mul };
int apply(Op op, int a, int b) {
  switch (op) { case Op::Add: return a + b; case Op::Mul: return a * b; }
  return 0;
}
namespace util { template <typename T> T clampT(T v, T lo, T hi) { return v < lo ? lo : (v > hi ? hi : v); } }
int main() {
  double x = 1.5, y = 2.5;
  swapT(x, y);
  slot(2) = 30;
  int *p = &table[0];
  int &r = *p;
  r = 10;
  for (auto i = 0; i < 4; ++i) printf("%d ", table[i]);
  printf("\n%.1f %.1f %d %d %d\n", x, y, maxT(3, 7), apply(Op::Mul, 6, 7), util::clampT(15, 0, 10));
  float h[4] = {1, 2, 3, 4}, *din, *dout;
  cudaMalloc(&din, sizeof(h)); cudaMalloc(&dout, sizeof(h));
  cudaMemcpy(din, h, sizeof(h), cudaMemcpyHostToDevice);
  k<<<1, 4>>>(dout, din);
  cudaMemcpy(h, dout, sizeof(h), cudaMemcpyDeviceToHost);
  printf("%.0f %.0f %.0f %.0f\n", h[0], h[1], h[2], h[3]);
  return 0;
}
