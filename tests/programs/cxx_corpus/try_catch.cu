// try/catch around GPU work where nothing throws: the try body runs, the handlers don't.
#include <cstdio>
#include <exception>
#include <stdexcept>
#include <vector>

struct GpuError : public std::runtime_error {
    explicit GpuError(const char *msg) : std::runtime_error(msg) {}
};

void check(cudaError_t e)
{
    if (e != cudaSuccess) throw GpuError(cudaGetErrorString(e));
}

__global__ void triangle(int *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = i * (i + 1) / 2;
}

int run(int n)
{
    std::vector<int> h(n);
    int *d = nullptr;
    check(cudaMalloc(&d, n * sizeof(int)));
    triangle<<<(n + 63) / 64, 64>>>(d, n);
    check(cudaGetLastError());
    check(cudaMemcpy(h.data(), d, n * sizeof(int), cudaMemcpyDeviceToHost));
    check(cudaFree(d));
    int s = 0;
    for (int v : h) s += v % 1000;
    return s;
}

int main()
{
    int status = 0;
    try {
        printf("run(100) = %d\n", run(100));
        printf("run(1000) = %d\n", run(1000));
    } catch (const GpuError &e) {
        printf("GPU error: %s\n", e.what());
        status = 2;
    } catch (const std::exception &e) {
        printf("error: %s\n", e.what());
        status = 1;
    } catch (...) {
        printf("unknown error\n");
        status = 3;
    }
    try {
        std::vector<int> v(10, 1);
        printf("vector size %zu\n", v.size());
    } catch (std::exception &) {
        status = 4;
    }
    printf("status %d\n", status);
    return status;
}
