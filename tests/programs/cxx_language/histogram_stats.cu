// A histogram kernel with atomicAdd and the host-side summary course material prints:
// <numeric>'s accumulate, <algorithm>'s max_element/min_element/distance, and a table
// of bins with setw, left/right and a bar of '#' built with std::string(count, '#').
// Input v[i] = (i * i) % 8 for i < 64; bin b counts the i with i*i = b (mod 8):
// squares mod 8 are 0 (i = 0 mod 4: 16), 1 (odd i: 32), 4 (i = 2 mod 4: 16), worked out
// by hand; the host recounts.
#include <algorithm>
#include <iomanip>
#include <iostream>
#include <numeric>
#include <string>
#include <vector>

const int kBins = 8;

__global__ void histogram(const int *in, int n, unsigned int *bins)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) atomicAdd(&bins[in[i]], 1u);
}

int main()
{
    const int n = 64;
    std::vector<int> v(n);
    for (int i = 0; i < n; ++i) v[i] = (i * i) % kBins;
    int *dIn;
    unsigned int *dBins;
    cudaMalloc(&dIn, n * sizeof(int));
    cudaMalloc(&dBins, kBins * sizeof(unsigned int));
    cudaMemcpy(dIn, v.data(), n * sizeof(int), cudaMemcpyHostToDevice);
    cudaMemset(dBins, 0, kBins * sizeof(unsigned int));
    histogram<<<2, 32>>>(dIn, n, dBins);
    std::vector<unsigned int> bins(kBins);
    cudaMemcpy(bins.data(), dBins, kBins * sizeof(unsigned int), cudaMemcpyDeviceToHost);
    cudaFree(dIn);
    cudaFree(dBins);

    unsigned int total = std::accumulate(bins.begin(), bins.end(), 0u);
    auto most = std::max_element(bins.begin(), bins.end());
    std::cout << std::left << std::setw(5) << "bin" << std::right << std::setw(6) << "count" << "  bar" << std::endl;
    for (int b = 0; b < kBins; ++b)
        std::cout << std::left << std::setw(5) << b << std::right << std::setw(6) << bins[b] << "  "
                  << std::string(bins[b] / 4, '#') << std::endl;
    std::cout << "total " << total << ", fullest bin " << std::distance(bins.begin(), most) << " (" << *most << ")"
              << std::endl;
    std::vector<unsigned int> check(kBins, 0);
    for (int x : v) check[x]++;
    std::cout << "host recount " << (std::equal(check.begin(), check.end(), bins.begin()) ? "agrees" : "differs") << std::endl;
    return 0;
}
