// The float overloads of the added math functions, in the global namespace and std: float results.
#include <cstdio>
#include <cmath>
__global__ void k(float *o, int *n) {
  float x = 2.5f;
  o[0] = erfc(x); o[1] = std::lgamma(x); o[2] = frexp(x, &n[0]); o[3] = sinpi(x); o[4] = std::nextafter(x, 3.0f);
  o[5] = (float)llround(x); sincos(x, &o[6], &o[7]); o[8] = std::remquo(x, 1.0f, &n[1]);
}
int main() {
  float *o; int *n; cudaMallocManaged(&o, 64); cudaMallocManaged(&n, 8);
  k<<<1, 1>>>(o, n); cudaDeviceSynchronize();
  for (int i = 0; i < 9; i++) printf("%a ", (double)o[i]);
  printf("%d %d\n", n[0], n[1]);
  float y = 0.3f;
  printf("%d %d %a\n", (int)sizeof(erfc(y)), (int)sizeof(std::modf(y, &y)), (double)nextafter(1.0f, 2.0f));
  return 0;
}
