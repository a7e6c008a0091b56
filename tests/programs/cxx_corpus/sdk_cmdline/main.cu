// An SDK-style sample driven by command-line flags (-n=..., -iterations=..., -verbose),
// parsed by the helper_string.h-style functions, with checkCudaErrors around each call.
#include <stdio.h>
#include <helper_cuda.h>
#include <helper_string.h>

__global__ void incrementKernel(int *g_data, int inc_value, int n)
{
    int idx = blockIdx.x * blockDim.x + threadIdx.x;
    if (idx < n) g_data[idx] = g_data[idx] + inc_value;
}

bool correct_output(int *data, const int n, const int x)
{
    for (int i = 0; i < n; i++)
        if (data[i] != x) {
            printf("Error! data[%d] = %d, ref = %d\n", i, data[i], x);
            return false;
        }
    return true;
}

int main(int argc, char *argv[])
{
    printf("[%s] - Starting...\n", "sdk_cmdline");
    int devID = findCudaDevice(argc, (const char **)argv);
    int n = 1024;
    int iterations = 1;
    if (checkCmdLineFlag(argc, (const char **)argv, "n")) n = getCmdLineArgumentInt(argc, (const char **)argv, "n");
    if (checkCmdLineFlag(argc, (const char **)argv, "iterations"))
        iterations = getCmdLineArgumentInt(argc, (const char **)argv, "iterations");
    bool verbose = checkCmdLineFlag(argc, (const char **)argv, "verbose");
    printf("device %d, n = %d, iterations = %d, verbose = %d\n", devID, n, iterations, (int)verbose);

    int nbytes = n * sizeof(int);
    int value = 26;
    int *a = 0;
    checkCudaErrors(cudaMallocHost((void **)&a, nbytes));
    memset(a, 0, nbytes);
    int *d_a = 0;
    checkCudaErrors(cudaMalloc((void **)&d_a, nbytes));
    checkCudaErrors(cudaMemset(d_a, 255, nbytes));

    dim3 threads = dim3(256, 1);
    dim3 blocks = dim3((n + threads.x - 1) / threads.x, 1);
    checkCudaErrors(cudaMemcpyAsync(d_a, a, nbytes, cudaMemcpyHostToDevice, 0));
    for (int it = 0; it < iterations; it++) incrementKernel<<<blocks, threads, 0, 0>>>(d_a, value, n);
    getLastCudaError("incrementKernel");
    checkCudaErrors(cudaMemcpyAsync(a, d_a, nbytes, cudaMemcpyDeviceToHost, 0));
    checkCudaErrors(cudaDeviceSynchronize());
    if (verbose) printf("a[0] = %d, a[n-1] = %d\n", a[0], a[n - 1]);

    bool bFinalResults = correct_output(a, n, value * iterations);
    checkCudaErrors(cudaFreeHost(a));
    checkCudaErrors(cudaFree(d_a));
    printf("%s\n", bFinalResults ? "Result = PASS" : "Result = FAIL");
    exit(bFinalResults ? EXIT_SUCCESS : EXIT_FAILURE);
}
