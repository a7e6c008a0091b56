// A class-based host driver: the experiment is an object holding std::vectors, with
// setup/run/verify/report methods, printing a table with iostream and iomanip.
#include <cuda_runtime.h>
#include <iomanip>
#include <iostream>
#include <vector>

__global__ void vecAdd(const float *a, const float *b, float *c, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) c[i] = a[i] + b[i];
}

class VectorAddExperiment {
public:
    VectorAddExperiment(int n, int threads) : n_(n), threads_(threads), a_(n), b_(n), c_(n, 0.0f) {}
    ~VectorAddExperiment() { release(); }

    void setup()
    {
        for (int i = 0; i < n_; ++i) {
            a_[i] = 0.5f * (i % 100);
            b_[i] = 0.25f * (i % 40);
        }
        cudaMalloc(&dA_, bytes());
        cudaMalloc(&dB_, bytes());
        cudaMalloc(&dC_, bytes());
        cudaMemcpy(dA_, a_.data(), bytes(), cudaMemcpyHostToDevice);
        cudaMemcpy(dB_, b_.data(), bytes(), cudaMemcpyHostToDevice);
    }

    void run()
    {
        int blocks = (n_ + threads_ - 1) / threads_;
        vecAdd<<<blocks, threads_>>>(dA_, dB_, dC_, n_);
        cudaMemcpy(c_.data(), dC_, bytes(), cudaMemcpyDeviceToHost);
    }

    int verify() const
    {
        int errors = 0;
        for (int i = 0; i < n_; ++i)
            if (c_[i] != a_[i] + b_[i]) ++errors;
        return errors;
    }

    void report(std::ostream &os) const
    {
        os << std::setw(8) << "index" << std::setw(10) << "a" << std::setw(10) << "b" << std::setw(10) << "c" << '\n';
        for (int i = 0; i < n_; i += n_ / 5) {
            os << std::setw(8) << i << std::fixed << std::setprecision(2) << std::setw(10) << a_[i]
               << std::setw(10) << b_[i] << std::setw(10) << c_[i] << '\n';
        }
        double sum = 0;
        for (float v : c_) sum += v;
        os << "sum = " << std::setprecision(3) << sum << ", errors = " << verify() << std::endl;
    }

private:
    size_t bytes() const { return n_ * sizeof(float); }
    void release()
    {
        cudaFree(dA_);
        cudaFree(dB_);
        cudaFree(dC_);
    }

    int n_;
    int threads_;
    std::vector<float> a_, b_, c_;
    float *dA_ = nullptr;
    float *dB_ = nullptr;
    float *dC_ = nullptr;
};

int main()
{
    VectorAddExperiment exp(3000, 128);
    exp.setup();
    exp.run();
    exp.report(std::cout);
    std::cout << (exp.verify() == 0 ? "Test PASSED" : "Test FAILED") << std::endl;
    std::cerr << "diagnostics go to std::cerr" << std::endl;
    return 0;
}
