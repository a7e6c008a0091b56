// A templated reduction using the SharedMemory<T> idiom: a struct template whose
// conversion operator returns the dynamic shared array, specialised for double.
#include <stdio.h>
#include <helper_cuda.h>

template <class T>
struct SharedMemory {
    __device__ inline operator T *()
    {
        extern __shared__ int __smem[];
        return (T *)__smem;
    }
    __device__ inline operator const T *() const
    {
        extern __shared__ int __smem[];
        return (T *)__smem;
    }
};

template <>
struct SharedMemory<double> {
    __device__ inline operator double *()
    {
        extern __shared__ double __smem_d[];
        return (double *)__smem_d;
    }
    __device__ inline operator const double *() const
    {
        extern __shared__ double __smem_d[];
        return (double *)__smem_d;
    }
};

template <class T, unsigned int blockSize>
__global__ void reduce(const T *g_idata, T *g_odata, unsigned int n)
{
    T *sdata = SharedMemory<T>();
    unsigned int tid = threadIdx.x;
    unsigned int i = blockIdx.x * (blockSize * 2) + threadIdx.x;
    unsigned int gridSize = blockSize * 2 * gridDim.x;
    T mySum = 0;
    while (i < n) {
        mySum += g_idata[i];
        if (i + blockSize < n) mySum += g_idata[i + blockSize];
        i += gridSize;
    }
    sdata[tid] = mySum;
    __syncthreads();
    if ((blockSize >= 512) && (tid < 256)) { sdata[tid] = mySum = mySum + sdata[tid + 256]; }
    __syncthreads();
    if ((blockSize >= 256) && (tid < 128)) { sdata[tid] = mySum = mySum + sdata[tid + 128]; }
    __syncthreads();
    if ((blockSize >= 128) && (tid < 64)) { sdata[tid] = mySum = mySum + sdata[tid + 64]; }
    __syncthreads();
    for (unsigned int s = 32; s > 0; s >>= 1) {
        if (tid < s) sdata[tid] = mySum = mySum + sdata[tid + s];
        __syncthreads();
    }
    if (tid == 0) g_odata[blockIdx.x] = mySum;
}

template <class T>
T runReduce(int n, int threads, int blocks, const char *name)
{
    T *h = (T *)malloc(n * sizeof(T));
    T cpu = 0;
    for (int i = 0; i < n; i++) {
        h[i] = (T)((i * 37) % 101);
        cpu += h[i];
    }
    T *d_in, *d_out;
    checkCudaErrors(cudaMalloc((void **)&d_in, n * sizeof(T)));
    checkCudaErrors(cudaMalloc((void **)&d_out, blocks * sizeof(T)));
    checkCudaErrors(cudaMemcpy(d_in, h, n * sizeof(T), cudaMemcpyHostToDevice));
    int smem = threads * sizeof(T);
    switch (threads) {
    case 256: reduce<T, 256><<<blocks, threads, smem>>>(d_in, d_out, n); break;
    case 128: reduce<T, 128><<<blocks, threads, smem>>>(d_in, d_out, n); break;
    case 64: reduce<T, 64><<<blocks, threads, smem>>>(d_in, d_out, n); break;
    }
    getLastCudaError("reduce kernel failed");
    T *partial = (T *)malloc(blocks * sizeof(T));
    checkCudaErrors(cudaMemcpy(partial, d_out, blocks * sizeof(T), cudaMemcpyDeviceToHost));
    T gpu = 0;
    for (int i = 0; i < blocks; i++) gpu += partial[i];
    printf("%-6s n=%d threads=%d blocks=%d gpu=%.1f cpu=%.1f %s\n", name, n, threads, blocks, (double)gpu,
           (double)cpu, gpu == cpu ? "PASS" : "FAIL");
    checkCudaErrors(cudaFree(d_in));
    checkCudaErrors(cudaFree(d_out));
    free(h);
    free(partial);
    return gpu;
}

int main(int argc, char **argv)
{
    printf("reduction Starting...\n");
    findCudaDevice(argc, (const char **)argv);
    runReduce<int>(5000, 256, 8, "int");
    runReduce<float>(3000, 128, 6, "float");
    runReduce<double>(4096, 64, 16, "double");
    runReduce<unsigned int>(777, 64, 3, "uint");
    return 0;
}
