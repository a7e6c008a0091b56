// Warp shuffles that move values between lanes: __shfl_sync broadcast (from lane 3 of the
// warp, and within segments of 8 lanes via width), __shfl_up_sync for an inclusive prefix
// sum, and __shfl_xor_sync on floats and doubles.  Lane l holds l + 1.
#include <cstdio>
#include <cuda_runtime.h>

__global__ void shuffles(int *bcast, int *seg, int *scan, float *fx, double *dx) {
    int lane = threadIdx.x;
    int v = lane + 1;
    bcast[lane] = __shfl_sync(0xffffffff, v * 10, 3);
    seg[lane] = __shfl_sync(0xffffffff, v, 0, 8);
    int s = v;
    for (int d = 1; d < 32; d *= 2) {
        int up = __shfl_up_sync(0xffffffff, s, d);
        if (lane >= d) s += up;
    }
    scan[lane] = s;
    float f = v * 0.5f;
    fx[lane] = __shfl_xor_sync(0xffffffff, f, 1);
    double g = v * 0.25;
    dx[lane] = __shfl_down_sync(0xffffffff, g, 4, 16);
}

int main() {
    int *b, *sg, *sc;
    float *f;
    double *d;
    cudaMallocManaged(&b, 32 * sizeof(int));
    cudaMallocManaged(&sg, 32 * sizeof(int));
    cudaMallocManaged(&sc, 32 * sizeof(int));
    cudaMallocManaged(&f, 32 * sizeof(float));
    cudaMallocManaged(&d, 32 * sizeof(double));
    shuffles<<<1, 32>>>(b, sg, sc, f, d);
    cudaDeviceSynchronize();
    int lanes[6] = {0, 1, 7, 8, 15, 31};
    for (int k = 0; k < 6; k++) {
        int l = lanes[k];
        printf("lane %2d: broadcast %d, segment %d, scan %d, xor %.1f, down %.2f\n", l, b[l], sg[l], sc[l], f[l], d[l]);
    }
    cudaFree(b); cudaFree(sg); cudaFree(sc); cudaFree(f); cudaFree(d);
    return 0;
}
