// Launch configuration checks: each launch's error from cudaGetLastError, then the
// next cudaGetLastError and cudaDeviceSynchronize.
#include <stdio.h>
__global__ void k(int *p) { if (p) p[0] = 1; }
__global__ void __launch_bounds__(64) kb(int *p) { if (p) p[0] = 1; }
__global__ void __launch_bounds__(128, 4) kb2(int *p) { if (p) p[0] = 1; }
extern __shared__ float dyn[];
__global__ void kd(float *p) { dyn[threadIdx.x] = 1; p[0] = dyn[0]; }
__global__ void ks(float *p) { __shared__ float st[10240]; st[threadIdx.x] = 1; dyn[threadIdx.x] = 2; p[0] = st[0] + dyn[0]; }
#define REPORT(name) do { cudaError_t e = cudaGetLastError(); cudaError_t e2 = cudaGetLastError(); \
  cudaError_t s = cudaDeviceSynchronize(); printf("%-14s %s \"%s\" | again %s | sync %s\n", name, \
  cudaGetErrorName(e), cudaGetErrorString(e), cudaGetErrorName(e2), cudaGetErrorName(s)); } while (0)
int main() {
    float *d; cudaMalloc(&d, 4096);
    k<<<-1, 32>>>(0); REPORT("grid -1");
    k<<<2147483648u, 1>>>(0); REPORT("grid 2^31");
    k<<<dim3(1, 70000), 1>>>(0); REPORT("grid y 70000");
    k<<<dim3(1, 1, 65536), 1>>>(0); REPORT("grid z 65536");
    k<<<dim3(1, 65535, 65535), 1>>>(0); REPORT("grid y,z 65535");
    k<<<0, 32>>>(0); REPORT("grid 0");
    k<<<1, 0>>>(0); REPORT("block 0");
    k<<<1, dim3(1, 1, 128)>>>(0); REPORT("block z 128");
    k<<<1, dim3(1, 1, 64)>>>(0); REPORT("block z 64");
    k<<<1, 1025>>>(0); REPORT("block 1025");
    k<<<1, dim3(32, 64)>>>(0); REPORT("block 32x64");
    k<<<1, dim3(2048, 1)>>>(0); REPORT("block x 2048");
    k<<<1, -1>>>(0); REPORT("block -1");
    kb<<<1, 64>>>(0); REPORT("lb64 64");
    kb<<<1, 256>>>(0); REPORT("lb64 256");
    kb2<<<1, 129>>>(0); REPORT("lb128 129");
    kd<<<1, 32, 128>>>(d); REPORT("dyn 128");
    kd<<<1, 32, 49152>>>(d); REPORT("dyn 48K");
    kd<<<1, 32, 49153>>>(d); REPORT("dyn 48K+1");
    kd<<<1, 32, 1 << 20>>>(d); REPORT("dyn 1M");
    ks<<<1, 32, 8192>>>(d); REPORT("st40K+dyn8K");
    ks<<<1, 32, 12288>>>(d); REPORT("st40K+dyn12K");
    cudaError_t a = cudaFuncSetAttribute(kd, cudaFuncAttributeMaxDynamicSharedMemorySize, 100 * 1024);
    printf("setattr 100K  %s\n", cudaGetErrorName(a));
    kd<<<1, 32, 100 * 1024>>>(d); REPORT("dyn 100K opt");
    kd<<<1, 32, 101 * 1024>>>(d); REPORT("dyn 101K opt");
    a = cudaFuncSetAttribute(kd, cudaFuncAttributeMaxDynamicSharedMemorySize, 227 * 1024);
    printf("setattr 227K  %s\n", cudaGetErrorName(a));
    a = cudaFuncSetAttribute(kd, cudaFuncAttributeMaxDynamicSharedMemorySize, 227 * 1024 + 1);
    printf("setattr 227K+1 %s %s\n", cudaGetErrorName(a), cudaGetErrorName(cudaGetLastError()));
    a = cudaFuncSetAttribute(ks, cudaFuncAttributeMaxDynamicSharedMemorySize, 200 * 1024);
    printf("setattr ks 200K %s %s\n", cudaGetErrorName(a), cudaGetErrorName(cudaGetLastError()));
    kd<<<1, 32, 228 * 1024>>>(d); REPORT("dyn 228K");
    int v; cudaDeviceGetAttribute(&v, cudaDevAttrMaxSharedMemoryPerBlockOptin, 0); printf("optin max %d\n", v);
    cudaDeviceGetAttribute(&v, cudaDevAttrMaxSharedMemoryPerBlock, 0); printf("per block %d\n", v);
    cudaFuncAttributes fa; cudaFuncGetAttributes(&fa, ks);
    printf("ks static %zu maxdyn %d maxthreads %d regs %d\n", fa.sharedSizeBytes, fa.maxDynamicSharedSizeBytes, fa.maxThreadsPerBlock, fa.numRegs);
    cudaFuncGetAttributes(&fa, kb); printf("kb maxthreads %d regs %d\n", fa.maxThreadsPerBlock, fa.numRegs);
    return 0;
}
