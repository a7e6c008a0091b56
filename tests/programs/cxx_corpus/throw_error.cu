// Errors as exceptions: a checking helper throws std::runtime_error with the CUDA error
// string; the launch with too many threads per block fails and nothing catches it,
// so the program ends as an uncaught exception does (terminate, abort: status 134).
#include <iostream>
#include <stdexcept>
#include <string>

inline void cudaCheck(cudaError_t err, const char *what)
{
    if (err != cudaSuccess)
        throw std::runtime_error(std::string(what) + ": " + cudaGetErrorString(err));
}

__global__ void fill(int *p, int v)
{
    p[threadIdx.x] = v;
}

int main()
{
    int *d = nullptr;
    cudaCheck(cudaMalloc(&d, 64 * sizeof(int)), "cudaMalloc");
    fill<<<1, 64>>>(d, 7);
    cudaCheck(cudaGetLastError(), "first launch");
    int h[64];
    cudaCheck(cudaMemcpy(h, d, sizeof(h), cudaMemcpyDeviceToHost), "cudaMemcpy");
    std::cout << "first launch ok, h[63] = " << h[63] << std::endl;

    fill<<<1, 4096>>>(d, 8);
    cudaCheck(cudaGetLastError(), "second launch");
    std::cout << "not reached" << std::endl;
    cudaFree(d);
    return 0;
}
