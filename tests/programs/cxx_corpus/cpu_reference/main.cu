// A weighted moving average (1-2-1) in the style of the SDK samples: the kernel here,
// the CPU reference in reference.cpp, compared element by element.
#include <stdio.h>
#include <stdlib.h>
#include <helper_cuda.h>
#include "reference.h"

__global__ void smooth(float *g_odata, const float *g_idata, unsigned int len)
{
    unsigned int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= len) return;
    float left = i > 0 ? g_idata[i - 1] : 0.0f;
    float right = i + 1 < len ? g_idata[i + 1] : 0.0f;
    g_odata[i] = (left + 2.0f * g_idata[i] + right) * 0.25f;
}

int main(int argc, char **argv)
{
    printf("cpu_reference Starting...\n\n");
    int devID = findCudaDevice(argc, (const char **)argv);
    printf("using device %d\n", devID);
    const unsigned int len = 2500;
    const unsigned int mem_size = sizeof(float) * len;
    float *h_idata = (float *)malloc(mem_size);
    for (unsigned int i = 0; i < len; ++i) h_idata[i] = (float)((i * 29) % 64);

    float *d_idata, *d_odata;
    checkCudaErrors(cudaMalloc((void **)&d_idata, mem_size));
    checkCudaErrors(cudaMalloc((void **)&d_odata, mem_size));
    checkCudaErrors(cudaMemcpy(d_idata, h_idata, mem_size, cudaMemcpyHostToDevice));
    dim3 grid((len + 255) / 256, 1, 1);
    dim3 threads(256, 1, 1);
    smooth<<<grid, threads>>>(d_odata, d_idata, len);
    getLastCudaError("Kernel execution failed");

    float *h_odata = (float *)malloc(mem_size);
    checkCudaErrors(cudaMemcpy(h_odata, d_odata, mem_size, cudaMemcpyDeviceToHost));
    float *reference = (float *)malloc(mem_size);
    computeGold(reference, h_idata, len);

    unsigned int mismatches = 0;
    for (unsigned int i = 0; i < len; ++i)
        if (reference[i] != h_odata[i]) ++mismatches;
    printf("checksum gpu %08x cpu %08x\n", checksumGold(h_odata, len), checksumGold(reference, len));
    printf("out[1] = %.2f, out[%u] = %.2f\n", h_odata[1], len - 1, h_odata[len - 1]);
    bool bTestResult = mismatches == 0;
    free(h_idata);
    free(h_odata);
    free(reference);
    checkCudaErrors(cudaFree(d_idata));
    checkCudaErrors(cudaFree(d_odata));
    printf("%s\n", bTestResult ? "Test passed" : "Test failed!");
    exit(bTestResult ? EXIT_SUCCESS : EXIT_FAILURE);
}
