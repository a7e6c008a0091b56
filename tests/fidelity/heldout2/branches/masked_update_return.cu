// Held-out kernel masked_update_return: a masked particle update (course exercises on active
// lists): a thread returns early past the end, returns again when its particle is not active
// in the mask, and otherwise moves the particle, bouncing it off the walls.  250 particles.
// Launch: grid 6, block 48 (the last block partly idle).
#include <cstdio>
#include <cstdlib>

__global__ void masked_update_return(const unsigned char *active, int *pos, int *vel, int n, int wall) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  if (!active[i]) return;
  int p = pos[i] + vel[i];
  if (p < 0) {
    p = -p;
    vel[i] = -vel[i];
  } else if (p > wall) {
    p = 2 * wall - p;
    vel[i] = -vel[i];
  }
  pos[i] = p;
}

int main() {
  const int n = 250, wall = 100;
  unsigned char active[n];
  int pos[n], vel[n], p2[n], v2[n];
  for (int i = 0; i < n; i++) {
    active[i] = (i % 3 != 0) && (i % 7 != 5);
    pos[i] = (i * 13) % (wall + 1);
    vel[i] = (i * 5) % 21 - 10;
  }
  unsigned char *da;
  int *dp, *dv;
  cudaMalloc(&da, sizeof(active));
  cudaMalloc(&dp, sizeof(pos));
  cudaMalloc(&dv, sizeof(vel));
  cudaMemcpy(da, active, sizeof(active), cudaMemcpyHostToDevice);
  cudaMemcpy(dp, pos, sizeof(pos), cudaMemcpyHostToDevice);
  cudaMemcpy(dv, vel, sizeof(vel), cudaMemcpyHostToDevice);
  masked_update_return<<<6, 48>>>(da, dp, dv, n, wall);
  cudaMemcpy(p2, dp, sizeof(p2), cudaMemcpyDeviceToHost);
  cudaMemcpy(v2, dv, sizeof(v2), cudaMemcpyDeviceToHost);
  int bad = 0;
  for (int i = 0; i < n; i++) {
    int p = pos[i], v = vel[i];
    if (active[i]) {
      p += v;
      if (p < 0) { p = -p; v = -v; }
      else if (p > wall) { p = 2 * wall - p; v = -v; }
    }
    bad += (p2[i] != p) + (v2[i] != v);
  }
  printf("masked_update_return %s\n", bad == 0 ? "OK" : "FAIL");
  cudaFree(da);
  cudaFree(dp);
  cudaFree(dv);
  return bad != 0;
}
