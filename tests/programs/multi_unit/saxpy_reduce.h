// saxpy_reduce: shared by the CUDA unit and its CPU reference (host C++ only)
#ifndef SAXPY_REDUCE_H
#define SAXPY_REDUCE_H

#define BLOCK 128

void saxpy_cpu(int n, float a, const float *x, float *y);
long long sum_cpu(const int *v, int n);
int compare_results(const float *gpu, const float *cpu, int n, float tolerance);
extern int cpu_calls;   // defined by the CPU reference, counted by the CUDA unit too

#endif
