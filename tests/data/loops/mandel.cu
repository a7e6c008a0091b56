#include <stdio.h>
__global__ void mandel(int *out, int maxIter) {
    int px = blockIdx.x * blockDim.x + threadIdx.x, py = blockIdx.y;
    float cx = -2.0f + px * 3.0f / 64, cy = -1.5f + py * 3.0f / 64;
    float x = 0, y = 0; int it = 0;
    while (x*x + y*y < 4.0f && it < maxIter) {
        float xt = x*x - y*y + cx; y = 2*x*y + cy; x = xt; it++;
    }
    out[py * 64 + px] = it;
}
int main() {
    int *d; cudaMalloc(&d, 64*64*4);
    mandel<<<dim3(2,64), 32>>>(d, 2500);
    int h[4096]; cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost);
    long s = 0; for (int i = 0; i < 4096; i++) s += h[i];
    printf("%s %ld\n", cudaGetErrorString(cudaGetLastError()), s);
}
