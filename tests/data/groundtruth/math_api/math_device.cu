// The math functions minicuda adds, on the device: N inputs (special values, then an LCG's
// spread), each function's result with %a, one line per input for doubles, one for floats.
#include <stdio.h>
#include <math.h>
#define N 320
#define ND 32
#define NF 32
double input(int i, unsigned long long *s) {
  double sp[24] = {0.0, -0.0, 1.0, -1.0, 2.0, -2.0, -3.0, 0.5, -0.5, 1e300, -1e300, 1e-310, 3.5, -7.5, 171.5,
                   -171.5, INFINITY, -INFINITY, NAN, 0.25, -0.75, 1.5, 1e-5, 0.999};
  if (i < 24) return sp[i];
  *s = *s * 6364136223846793005ULL + 1442695040888963407ULL;
  double u = (double)(*s >> 11) / 9007199254740992.0;
  int k = i % 4;
  if (k == 0) return (u - 0.5) * 20.0;
  if (k == 1) return (u - 0.5) * 400.0;
  if (k == 2) return (u - 0.5) * 2.0;
  return (u - 0.5) * 1e6;
}
__global__ void math(const double *xs, const double *ys, double *d, float *f, int *q) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= N) return;
  double x = xs[i], y = ys[i], u = x * 0.01, p = x - floor(x);   // p in [0, 1)
  float xf = (float)x, yf = (float)y, uf = (float)u, pf = (float)p;
  double *o = d + i * ND;
  float *g = f + i * NF;
  int *e = q + i * 8;
  o[0] = erfc(x); o[1] = lgamma(x); o[2] = tgamma(x); o[3] = exp10(u); o[4] = asinh(x); o[5] = acosh(x);
  o[6] = atanh(u); o[7] = logb(x); o[8] = nearbyint(x); o[9] = nextafter(x, y); o[10] = remainder(x, y);
  o[11] = frexp(x, &e[0]); o[12] = modf(x, &o[13]); o[14] = remquo(x, y, &e[1]); e[2] = ilogb(x);
  o[15] = scalbn(x, i - 160); o[16] = ldexp(x, -i * 7); sincos(x, &o[17], &o[18]); o[19] = sinpi(x);
  o[20] = cospi(x); sincospi(u, &o[21], &o[22]); o[23] = normcdf(x); o[24] = rcbrt(x);
  o[25] = erfinv(2.0 * p - 1.0); o[26] = erfcinv(2.0 * p); o[27] = erfcinv(ldexp(p, -i)); o[28] = erfinv(u);
  g[0] = erfcf(xf); g[1] = lgammaf(xf); g[2] = tgammaf(xf); g[3] = exp10f(uf); g[4] = asinhf(xf); g[5] = acoshf(xf);
  g[6] = atanhf(uf); g[7] = logbf(xf); g[8] = nearbyintf(xf); g[9] = nextafterf(xf, yf); g[10] = remainderf(xf, yf);
  g[11] = frexpf(xf, &e[3]); g[12] = modff(xf, &g[13]); g[14] = remquof(xf, yf, &e[4]); e[5] = ilogbf(xf);
  g[15] = scalbnf(xf, i - 160); g[16] = ldexpf(xf, -i); sincosf(xf, &g[17], &g[18]); g[19] = sinpif(xf);
  g[20] = cospif(xf); sincospif(uf, &g[21], &g[22]); g[23] = normcdff(xf); g[24] = rcbrtf(xf);
  g[25] = erfinvf(2.0f * pf - 1.0f); g[26] = erfcinvf(2.0f * pf); g[27] = erfcinvf(ldexpf(pf, -(i % 140)));
  g[28] = erfinvf(uf);
  long long *l = (long long *)(o + 29);
  bool fits = fabs(x) < 9e18;
  l[0] = fits ? llrint(x) : 0; l[1] = fits ? llround(x) : 0; l[2] = fits ? llrintf(xf) : 0;
}
int main() {
  double *xs, *ys, *d; float *f; int *q;
  cudaMallocManaged(&xs, N * sizeof(double)); cudaMallocManaged(&ys, N * sizeof(double));
  cudaMallocManaged(&d, N * ND * sizeof(double)); cudaMallocManaged(&f, N * NF * sizeof(float));
  cudaMallocManaged(&q, N * 8 * sizeof(int));
  unsigned long long s = 12345;
  for (int i = 0; i < N; i++) xs[i] = input(i, &s);
  for (int i = 0; i < N; i++) ys[i] = i % 50 == 7 ? 3e307 : (i % 50 == 8 ? 5e37 : input(N - 1 - i, &s) * 0.37 + 0.25);
  math<<<(N + 127) / 128, 128>>>(xs, ys, d, f, q);
  cudaDeviceSynchronize();
  for (int i = 0; i < N; i++) {
    printf("%d d", i);
    for (int k = 0; k < 29; k++) printf(" %a", d[i * ND + k]);
    long long *l = (long long *)(d + i * ND + 29);
    printf(" %d %d %d %lld %lld %lld\n", q[i * 8], q[i * 8 + 1], q[i * 8 + 2], l[0], l[1], l[2]);
    printf("%d f", i);
    for (int k = 0; k < 29; k++) printf(" %a", (double)f[i * NF + k]);
    printf(" %d %d %d\n", q[i * 8 + 3], q[i * 8 + 4], q[i * 8 + 5]);
  }
  return 0;
}
