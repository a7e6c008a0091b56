// Shared-memory reads at strides of 1, 3 and 6 words, and a double array read by lane.
#include <cstdio>
#include <cuda_runtime.h>

template <int STRIDE>
__global__ void strided(float *out)
{
    __shared__ float s[32 * 6 + 1];
    for (int i = threadIdx.x; i < 32 * 6 + 1; i += blockDim.x) s[i] = i;
    __syncthreads();
    out[blockIdx.x * blockDim.x + threadIdx.x] = s[(threadIdx.x % 32) * STRIDE];
}

__global__ void doubles(double *out)
{
    __shared__ double d[64];
    d[threadIdx.x] = threadIdx.x * 0.5;
    __syncthreads();
    out[threadIdx.x] = d[63 - threadIdx.x] + d[(threadIdx.x * 2) % 64];
}

int main(void)
{
    float *df, hf[256];
    double *dd, hd[64];
    cudaMalloc(&df, sizeof(hf));
    cudaMalloc(&dd, sizeof(hd));
    strided<1><<<2, 128>>>(df);
    strided<3><<<2, 128>>>(df);
    cudaMemcpy(hf, df, sizeof(hf), cudaMemcpyDeviceToHost);
    printf("stride3 %.0f %.0f\n", hf[1], hf[31]);
    strided<6><<<2, 128>>>(df);
    cudaMemcpy(hf, df, sizeof(hf), cudaMemcpyDeviceToHost);
    printf("stride6 %.0f %.0f\n", hf[1], hf[31]);
    doubles<<<1, 64>>>(dd);
    cudaMemcpy(hd, dd, sizeof(hd), cudaMemcpyDeviceToHost);
    printf("doubles %.1f %.1f\n", hd[0], hd[63]);
    return 0;
}
