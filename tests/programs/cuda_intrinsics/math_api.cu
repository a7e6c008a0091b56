// The math functions of the CUDA Math API beyond C89's, at their special values: the exact results
// C and the CUDA Math API documentation give (tests/data/groundtruth/math_api/ has an H100's on 320 inputs).
#include <stdio.h>
#include <math.h>
__global__ void special(double *d, float *f, int *n, long long *l) {
  d[0] = erfc(0.0); d[1] = lgamma(-2.0); d[2] = tgamma(-3.0); d[3] = tgamma(-0.0); d[4] = lgamma(1.0);
  d[5] = frexp(8.0, &n[0]); d[6] = ldexp(1.0, -1074); d[7] = modf(-3.5, &d[8]); d[9] = remquo(7.0, 2.0, &n[1]);
  n[2] = ilogb(0.0); n[3] = ilogb(INFINITY); d[10] = sinpi(1.0); d[11] = sinpi(-1.0); d[12] = cospi(0.5);
  d[13] = erfinv(1.0); d[14] = erfcinv(0.0); d[15] = normcdf(0.0); d[16] = rcbrt(8.0); d[17] = nextafter(0.0, 1.0);
  d[18] = exp10(2.0); d[19] = acosh(1.0); d[20] = atanh(1.0); d[21] = logb(-0.0); d[22] = nearbyint(2.5);
  d[23] = remainder(5.0, 2.0); d[24] = erfinv(-0.0); d[25] = tgamma(172.0); d[26] = scalbn(1.0, 2000);
  d[27] = asinh(-0.0); d[28] = erfc(INFINITY); d[29] = erfcinv(2.0);
  sincos(0.0, &d[30], &d[31]);
  l[0] = llround(2.5); l[1] = llrint(2.5); l[2] = lround(-2.5); l[3] = lrint(-3.5);
  f[0] = erfcf(-INFINITY); f[1] = lgammaf(0.0f); f[2] = tgammaf(0.5f) * tgammaf(0.5f); f[3] = frexpf(-0.75f, &n[4]);
  f[4] = ldexpf(1.0f, -149); f[5] = sinpif(-0.0f); f[6] = cospif(1.5f); f[7] = erfinvf(-1.0f); f[8] = normcdff(-INFINITY);
  f[9] = nextafterf(1.0f, 2.0f); f[10] = remquof(-7.0f, 2.0f, &n[5]); f[11] = rcbrtf(-0.0f); f[12] = exp10f(-1.0f);
  sincosf(0.0f, &f[13], &f[14]); sincospif(0.5f, &f[15], &f[16]);
  l[4] = llroundf(-0.5f); l[5] = llrintf(1.5f);
}
int main() {
  double *d; float *f; int *n; long long *l;
  cudaMallocManaged(&d, 32 * sizeof(double)); cudaMallocManaged(&f, 17 * sizeof(float));
  cudaMallocManaged(&n, 6 * sizeof(int)); cudaMallocManaged(&l, 6 * sizeof(long long));
  special<<<1, 1>>>(d, f, n, l);
  cudaDeviceSynchronize();
  for (int i = 0; i < 32; i++) printf("d%d %a\n", i, d[i]);
  for (int i = 0; i < 17; i++) printf("f%d %a\n", i, (double)f[i]);
  for (int i = 0; i < 6; i++) printf("n%d %d l%d %lld\n", i, n[i], i, l[i]);
  int e;
  printf("host %a %a %d %a %ld\n", lgamma(-1.0), frexp(-0.0, &e), e, erfcinv(1.0), lround(0.5));
  return 0;
}
