// Normalising 65,536 3D vectors stored as an array of structures of three floats
// (normalizeAoS) or as three arrays (normalizeSoA), chapter 4 of "Professional CUDA C
// Programming" on data layout.  A warp's loads of one field of the 12-byte structs span 384
// bytes (12 sectors for 4 useful); the SoA loads are 128 contiguous bytes each.
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

#define N 65536

struct Vec3 {
  float x, y, z;
};

__global__ void normalizeAoS(Vec3 *v, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    Vec3 p = v[i];
    float len = sqrtf(p.x * p.x + p.y * p.y + p.z * p.z);
    if (len > 0.0f) {
      p.x /= len;
      p.y /= len;
      p.z /= len;
    }
    v[i] = p;
  }
}

__global__ void normalizeSoA(float *x, float *y, float *z, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    float a = x[i], b = y[i], c = z[i];
    float len = sqrtf(a * a + b * b + c * c);
    if (len > 0.0f) {
      a /= len;
      b /= len;
      c /= len;
    }
    x[i] = a;
    y[i] = b;
    z[i] = c;
  }
}

static float component(int i, int k) { return (float)((i * (3 + k) + 7 * k) % 41 - 20); }

static int check(int i, float x, float y, float z) {
  float a = component(i, 0), b = component(i, 1), c = component(i, 2);
  double len = sqrt((double)a * a + (double)b * b + (double)c * c);
  if (len == 0) return x != 0 || y != 0 || z != 0;
  return fabs(x - a / len) > 2e-6 || fabs(y - b / len) > 2e-6 || fabs(z - c / len) > 2e-6;
}

int main(void) {
  Vec3 *h = (Vec3 *)malloc(N * sizeof(Vec3));
  float *hx = (float *)malloc(N * sizeof(float)), *hy = (float *)malloc(N * sizeof(float)),
        *hz = (float *)malloc(N * sizeof(float));
  for (int i = 0; i < N; i++) {
    h[i].x = hx[i] = component(i, 0);
    h[i].y = hy[i] = component(i, 1);
    h[i].z = hz[i] = component(i, 2);
  }
  Vec3 *dv;
  float *dx, *dy, *dz;
  cudaMalloc(&dv, N * sizeof(Vec3));
  cudaMalloc(&dx, N * sizeof(float));
  cudaMalloc(&dy, N * sizeof(float));
  cudaMalloc(&dz, N * sizeof(float));
  cudaMemcpy(dv, h, N * sizeof(Vec3), cudaMemcpyHostToDevice);
  cudaMemcpy(dx, hx, N * sizeof(float), cudaMemcpyHostToDevice);
  cudaMemcpy(dy, hy, N * sizeof(float), cudaMemcpyHostToDevice);
  cudaMemcpy(dz, hz, N * sizeof(float), cudaMemcpyHostToDevice);
  normalizeAoS<<<N / 128, 128>>>(dv, N);
  cudaMemcpy(h, dv, N * sizeof(Vec3), cudaMemcpyDeviceToHost);
  int bad = 0;
  for (int i = 0; i < N; i++) bad += check(i, h[i].x, h[i].y, h[i].z);
  printf("normalizeAoS: %d errors\n", bad);
  normalizeSoA<<<N / 128, 128>>>(dx, dy, dz, N);
  cudaMemcpy(hx, dx, N * sizeof(float), cudaMemcpyDeviceToHost);
  cudaMemcpy(hy, dy, N * sizeof(float), cudaMemcpyDeviceToHost);
  cudaMemcpy(hz, dz, N * sizeof(float), cudaMemcpyDeviceToHost);
  bad = 0;
  for (int i = 0; i < N; i++) bad += check(i, hx[i], hy[i], hz[i]);
  printf("normalizeSoA: %d errors\n", bad);
  cudaFree(dv);
  cudaFree(dx);
  cudaFree(dy);
  cudaFree(dz);
  free(h);
  free(hx);
  free(hy);
  free(hz);
  return 0;
}
