// Held-out kernel shape_area_switch: a switch on a small enum (the programming guide's
// enumerations in device code, course exercises on polymorphism without virtuals): each
// thread's shape kind picks how its doubled area is computed from two integer sizes; an
// unknown kind falls to the default.  384 shapes.
// Launch: grid 3, block 128.
#include <cstdio>
#include <cstdlib>

enum ShapeKind { SQUARE = 0, RECTANGLE = 1, TRIANGLE = 2, TRAPEZOID = 3 };

__global__ void shape_area_switch(const int *kind, const int *a, const int *b, int *area2, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  int r;
  switch (kind[i]) {
    case SQUARE:
      r = 2 * a[i] * a[i];
      break;
    case RECTANGLE:
      r = 2 * a[i] * b[i];
      break;
    case TRIANGLE:
      r = a[i] * b[i];
      break;
    case TRAPEZOID:
      r = (a[i] + b[i]) * (a[i] > b[i] ? b[i] : a[i]);
      break;
    default:
      r = -1;
  }
  area2[i] = r;
}

int main() {
  const int n = 384;
  int kind[n], a[n], b[n], got[n];
  for (int i = 0; i < n; i++) {
    kind[i] = (i * 7 + i / 32) % 5;   // 4: not a shape
    a[i] = i % 17 + 1;
    b[i] = (i * 3) % 11 + 2;
  }
  int *dk, *da, *db, *dr;
  cudaMalloc(&dk, sizeof(kind));
  cudaMalloc(&da, sizeof(a));
  cudaMalloc(&db, sizeof(b));
  cudaMalloc(&dr, sizeof(got));
  cudaMemcpy(dk, kind, sizeof(kind), cudaMemcpyHostToDevice);
  cudaMemcpy(da, a, sizeof(a), cudaMemcpyHostToDevice);
  cudaMemcpy(db, b, sizeof(b), cudaMemcpyHostToDevice);
  shape_area_switch<<<3, 128>>>(dk, da, db, dr, n);
  cudaMemcpy(got, dr, sizeof(got), cudaMemcpyDeviceToHost);
  int bad = 0;
  for (int i = 0; i < n; i++) {
    int m = a[i] < b[i] ? a[i] : b[i];
    int r = kind[i] == 0 ? 2 * a[i] * a[i] : kind[i] == 1 ? 2 * a[i] * b[i] : kind[i] == 2 ? a[i] * b[i]
          : kind[i] == 3 ? (a[i] + b[i]) * m : -1;
    bad += got[i] != r;
  }
  printf("shape_area_switch %s\n", bad == 0 ? "OK" : "FAIL");
  cudaFree(dk);
  cudaFree(da);
  cudaFree(db);
  cudaFree(dr);
  return bad != 0;
}
