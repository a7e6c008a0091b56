// cudaFuncGetAttributes: a kernel's static shared memory, its local memory and the most
// threads a block of it may have (its __launch_bounds__, else 1024 for a small kernel),
// and the dynamic shared memory it may take by default (48 KiB less its static shared).
#include <cstdio>
#include <cuda_runtime.h>

__global__ void plain(float *x) { x[threadIdx.x] += 1.0f; }

__global__ void __launch_bounds__(256) tiled(const float *in, float *out) {
    __shared__ float tile[256];
    __shared__ int flags[32];
    tile[threadIdx.x] = in[threadIdx.x];
    if (threadIdx.x < 32) flags[threadIdx.x] = 1;
    __syncthreads();
    out[threadIdx.x] = tile[255 - threadIdx.x] * flags[threadIdx.x % 32];
}

void report(const char *name, const void *kernel) {
    cudaFuncAttributes attr;
    cudaError_t e = cudaFuncGetAttributes(&attr, kernel);
    if (e != cudaSuccess) { printf("%s: %s\n", name, cudaGetErrorName(e)); return; }
    printf("%s: shared %zu bytes, local %zu bytes, max threads %d, dynamic shared up to %d\n", name,
           attr.sharedSizeBytes, attr.localSizeBytes, attr.maxThreadsPerBlock, attr.maxDynamicSharedSizeBytes);
}

int main() {
    report("plain", (const void *)plain);
    report("tiled", (const void *)tiled);
    cudaFuncSetAttribute(tiled, cudaFuncAttributeMaxDynamicSharedMemorySize, 4096);
    report("tiled after raising", (const void *)tiled);
    float *in, *out;
    cudaMallocManaged(&in, 256 * sizeof(float));
    cudaMallocManaged(&out, 256 * sizeof(float));
    for (int i = 0; i < 256; i++) in[i] = i;
    tiled<<<1, 256>>>(in, out);
    cudaDeviceSynchronize();
    printf("out[0]=%.0f out[255]=%.0f\n", out[0], out[255]);
    cudaError_t e = cudaFuncGetAttributes(NULL, (const void *)plain);
    printf("NULL attributes: %s\n", cudaGetErrorName(e));
    cudaFree(in);
    cudaFree(out);
    return 0;
}
