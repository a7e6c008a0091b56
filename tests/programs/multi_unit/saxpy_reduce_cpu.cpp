// The CPU reference: host C++ the host compiler builds (no CUDA here).
#include <math.h>
#include <stdio.h>
#include "saxpy_reduce.h"

int cpu_calls = 0;
static int launches = 100;   // private to this unit: the .cu file's static is another variable

void saxpy_cpu(int n, float a, const float *x, float *y) {
  cpu_calls++;
  for (int i = 0; i < n; i++) y[i] = a * x[i] + y[i];
}

long long sum_cpu(const int *v, int n) {
  cpu_calls++;
  long long s = 0;
  for (int i = 0; i < n; i++) s += v[i];
  return s;
}

int compare_results(const float *gpu, const float *cpu, int n, float tolerance) {
  cpu_calls++;
  int bad = 0;
  for (int i = 0; i < n; i++) {
    if (fabsf(gpu[i] - cpu[i]) > tolerance) {
      if (bad < 3) printf("mismatch at %d: %f vs %f\n", i, gpu[i], cpu[i]);
      bad++;
    }
  }
  return bad + launches - 100;
}
