// Host timing with std::chrono and device timing with CUDA events; the times are printed
// on "Time" lines (which differ from run to run), the results on the others.
#include <chrono>
#include <cstdio>
#include <iostream>

__global__ void work(int *out, int n, int rounds)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    int x = i;
    for (int r = 0; r < rounds; r++) x = (x * 1103515245 + 12345) & 0x7fffffff;
    out[i] = x & 0xff;
}

int main()
{
    const int n = 2048;
    int *d;
    cudaMalloc(&d, n * sizeof(int));

    auto t0 = std::chrono::high_resolution_clock::now();
    cudaEvent_t start, stop;
    cudaEventCreate(&start);
    cudaEventCreate(&stop);
    cudaEventRecord(start);
    work<<<n / 256, 256>>>(d, n, 16);
    cudaEventRecord(stop);
    cudaEventSynchronize(stop);
    float ms = 0;
    cudaEventElapsedTime(&ms, start, stop);
    auto t1 = std::chrono::high_resolution_clock::now();
    auto us = std::chrono::duration_cast<std::chrono::microseconds>(t1 - t0).count();
    std::chrono::duration<double, std::milli> hostMs = t1 - t0;

    int h[n];
    cudaMemcpy(h, d, sizeof(h), cudaMemcpyDeviceToHost);
    long sum = 0;
    for (int i = 0; i < n; i++) sum += h[i];
    printf("checksum %ld, h[0]=%d h[2047]=%d\n", sum, h[0], h[n - 1]);
    printf("Time: %.3f ms (kernel, events)\n", ms);
    std::cout << "Time: " << us << " us (host, chrono)" << std::endl;
    std::cout << "Time: " << hostMs.count() << " ms (host, duration<double, milli>)" << std::endl;
    auto steady = std::chrono::steady_clock::now();
    bool monotonic = steady >= std::chrono::steady_clock::now() - std::chrono::hours(1);
    std::cout << "steady clock monotonic: " << (monotonic ? "yes" : "no") << std::endl;
    cudaEventDestroy(start);
    cudaEventDestroy(stop);
    cudaFree(d);
    return 0;
}
