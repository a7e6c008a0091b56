// A float4 access through a pointer that is not a multiple of 16 bytes: the GPU's LDG.128
// faults with "misaligned address" (cudaErrorMisalignedAddress, 716), which the next
// synchronising call returns and which stays (a sticky error: the copy after it fails too).
// By hand: the kernel's first thread loads 16 bytes at buf + 4 bytes; nothing is stored.
#include <cstdio>

__global__ void copy4(const float4 *in, float4 *out)
{
    out[threadIdx.x] = in[threadIdx.x];
}

int main()
{
    float *buf;
    float host[4] = {0, 0, 0, 0};
    cudaMalloc(&buf, 64 * sizeof(float));
    cudaMemset(buf, 0, 64 * sizeof(float));
    copy4<<<1, 2>>>((const float4 *)(buf + 1), (float4 *)(buf + 16));
    printf("launch: %s\n", cudaGetErrorName(cudaGetLastError()));
    cudaError_t e = cudaDeviceSynchronize();
    printf("sync: %d %s: %s\n", (int)e, cudaGetErrorName(e), cudaGetErrorString(e));
    e = cudaMemcpy(host, buf + 16, sizeof host, cudaMemcpyDeviceToHost);
    printf("copy after: %s\n", cudaGetErrorName(e));
    return 0;
}
