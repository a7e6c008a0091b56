// std::string and std::to_string for building labels and a report around a kernel.
#include <cstdio>
#include <string>
#include <iostream>

__global__ void countMultiples(const int *data, int n, int k, int *count)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n && data[i] % k == 0) atomicAdd(count, 1);
}

std::string label(const std::string &prefix, int k)
{
    return prefix + "[" + std::to_string(k) + "]";
}

int main()
{
    const int n = 1024;
    int h[n];
    for (int i = 0; i < n; i++) h[i] = (i * 13 + 7) % 97;
    int *d, *dCount;
    cudaMalloc(&d, sizeof(h));
    cudaMalloc(&dCount, sizeof(int));
    cudaMemcpy(d, h, sizeof(h), cudaMemcpyHostToDevice);

    std::string report;
    for (int k = 2; k <= 7; k++) {
        cudaMemset(dCount, 0, sizeof(int));
        countMultiples<<<n / 256, 256>>>(d, n, k, dCount);
        int count = 0;
        cudaMemcpy(&count, dCount, sizeof(int), cudaMemcpyDeviceToHost);
        std::string line = label("multiples", k) + " = " + std::to_string(count);
        report += line;
        report += '\n';
    }
    std::cout << report;
    std::string name = "corpus";
    std::string other("corpus");
    std::string greeting = "hello, " + name;
    printf("%s (length %zu)\n", greeting.c_str(), greeting.size());
    std::cout << "equal: " << (name == other) << ", less: " << (std::string("abc") < std::string("abd"))
              << ", empty: " << std::string().empty() << std::endl;
    std::cout << std::to_string(3.5) << " " << std::to_string(-42) << " " << std::to_string(123456789L) << std::endl;
    cudaFree(d);
    cudaFree(dCount);
    return 0;
}
