// A class in a namespace: explicit constructor, destructor with delete[], a member function
// returning a reference, throw/catch of std::runtime_error by const reference. Expected:
// the kernel doubles 0..7, so the total is 56 (g++ prints the same for the host part).
#include <cstdio>
#include <stdexcept>
#include <iostream>
using namespace std;
namespace sim {
class Grid {
public:
    explicit Grid(int n) : n_(n), data_(new float[n]) {}
    ~Grid() { delete[] data_; }
    float &at(int i) { return data_[i]; }
    int size() const { return n_; }
private:
    int n_;
    float *data_;
};
}
__global__ void scale(float *d, int n, float k) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) d[i] *= k;
}
int main() {
    sim::Grid g(8);
    for (int i = 0; i < g.size(); ++i) g.at(i) = i;
    float *d = nullptr;
    cudaMalloc(&d, g.size() * sizeof(float));
    cudaMemcpy(d, &g.at(0), g.size() * sizeof(float), cudaMemcpyHostToDevice);
    scale<<<1, 32>>>(d, g.size(), 2.0f);
    cudaMemcpy(&g.at(0), d, g.size() * sizeof(float), cudaMemcpyDeviceToHost);
    auto total = 0.0f;
    for (int i = 0; i < g.size(); ++i) total += g.at(i);
    try {
        if (total != 56.0f) throw std::runtime_error("bad total");
        printf("total %.1f\n", total);
    } catch (const std::exception &e) {
        printf("error\n");
    }
    cudaFree(d);
    return 0;
}
