// Held-out kernel quadrant_classify: nested ifs on the data (which quadrant of the plane a
// point lies in, and whether it is inside the unit circle), as in a course's first exercise
// on divergence.  One launch: grid 2, block 128, 256 points.
#include <cstdio>
#include <cstdlib>

__global__ void quadrant_classify(const int *x, const int *y, int *label, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    int code;
    if (x[i] >= 0) {
      if (y[i] >= 0)
        code = 1;
      else
        code = 4;
    } else {
      if (y[i] >= 0)
        code = 2;
      else
        code = 3;
    }
    if (x[i] * x[i] + y[i] * y[i] <= 100) code += 10;
    label[i] = code;
  }
}

int main() {
  const int n = 256;
  int hx[n], hy[n], hl[n], ref[n];
  for (int i = 0; i < n; i++) {
    hx[i] = (i * 7) % 31 - 15;
    hy[i] = (i * 13) % 29 - 14;
    int c = hx[i] >= 0 ? (hy[i] >= 0 ? 1 : 4) : (hy[i] >= 0 ? 2 : 3);
    ref[i] = c + (hx[i] * hx[i] + hy[i] * hy[i] <= 100 ? 10 : 0);
  }
  int *dx, *dy, *dl;
  cudaMalloc((void **)&dx, n * sizeof(int));
  cudaMalloc((void **)&dy, n * sizeof(int));
  cudaMalloc((void **)&dl, n * sizeof(int));
  cudaMemcpy(dx, hx, n * sizeof(int), cudaMemcpyHostToDevice);
  cudaMemcpy(dy, hy, n * sizeof(int), cudaMemcpyHostToDevice);
  quadrant_classify<<<2, 128>>>(dx, dy, dl, n);
  cudaMemcpy(hl, dl, n * sizeof(int), cudaMemcpyDeviceToHost);
  int errors = 0;
  for (int i = 0; i < n; i++)
    if (hl[i] != ref[i]) errors++;
  if (errors == 0) printf("quadrant_classify OK\n");
  else printf("quadrant_classify FAIL: %d wrong\n", errors);
  cudaFree(dx); cudaFree(dy); cudaFree(dl);
  return errors != 0;
}
