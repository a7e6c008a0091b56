// A device-memory class in the RAII style of CUDA course material: the constructor
// cudaMallocs, the destructor cudaFrees (and says so), copying is deleted, and the
// host side talks to it through std::vector.  The kernel is saxpy with a = 2,
// x[i] = i, y[i] = 10: y[i] becomes 2*i + 10 (exact in float), worked out by hand.
#include <cstdio>
#include <iostream>
#include <string>
#include <vector>

template <typename T>
class DeviceBuffer {
public:
    explicit DeviceBuffer(size_t n, const std::string &name) : n_(n), name_(name), ptr_(nullptr)
    {
        cudaMalloc(&ptr_, n * sizeof(T));
        std::cout << "alloc " << name_ << " (" << n_ * sizeof(T) << " bytes)" << std::endl;
    }
    ~DeviceBuffer()
    {
        cudaFree(ptr_);
        std::cout << "free " << name_ << std::endl;
    }
    DeviceBuffer(const DeviceBuffer &) = delete;
    DeviceBuffer &operator=(const DeviceBuffer &) = delete;

    void upload(const std::vector<T> &host) { cudaMemcpy(ptr_, host.data(), n_ * sizeof(T), cudaMemcpyHostToDevice); }
    std::vector<T> download() const
    {
        std::vector<T> host(n_);
        cudaMemcpy(host.data(), ptr_, n_ * sizeof(T), cudaMemcpyDeviceToHost);
        return host;
    }
    T *get() { return ptr_; }
    size_t size() const { return n_; }

private:
    size_t n_;
    std::string name_;
    T *ptr_;
};

__global__ void saxpy(int n, float a, const float *x, float *y)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) y[i] = a * x[i] + y[i];
}

int main()
{
    const int n = 10;
    std::vector<float> x(n), y(n, 10.0f);
    for (int i = 0; i < n; ++i) x[i] = static_cast<float>(i);
    {
        DeviceBuffer<float> dx(n, "x");
        DeviceBuffer<float> dy(n, "y");
        dx.upload(x);
        dy.upload(y);
        saxpy<<<(n + 3) / 4, 4>>>(n, 2.0f, dx.get(), dy.get());
        cudaDeviceSynchronize();
        y = dy.download();
        std::cout << "buffers hold " << dx.size() + dy.size() << " floats" << std::endl;
    }
    for (float v : y) std::cout << v << ' ';
    std::cout << std::endl;
    return 0;
}
