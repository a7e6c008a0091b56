// Host-side helpers as course code writes them: a scoped timer class over <chrono> (its
// elapsed time is measured but only its sign printed), static members counting live
// instances, a const member function updating a mutable cache, an enum class chosen in a
// switch, default arguments and a function template called with explicit arguments.
// Kernel output worked out by hand: fill<<<2, 4>>> writes v[i] = i * scale(Op::Triple) = 3 * i
// for i < 8, so the sum is 3 * 28 = 84.
#include <chrono>
#include <cstdio>
#include <iostream>
#include <string>

enum class Op { Double, Triple, Negate };

__host__ __device__ int scale(Op op) {
    switch (op) {
    case Op::Double: return 2;
    case Op::Triple: return 3;
    case Op::Negate: return -1;
    }
    return 0;
}

const char *opName(Op op) {
    switch (op) {
    case Op::Double: return "double";
    case Op::Triple: return "triple";
    default: return "negate";
    }
}

class Timer {
public:
    explicit Timer(const std::string &label = "timer") : label_(label), start_(std::chrono::steady_clock::now()) {
        ++live_;
        ++made_;
    }
    ~Timer() { --live_; }
    double elapsedMs() const {
        auto now = std::chrono::steady_clock::now();
        return std::chrono::duration<double, std::milli>(now - start_).count();
    }
    const std::string &label() const { return label_; }
    int reads() const { return ++reads_; }
    static int live() { return live_; }
    static int made() { return made_; }

private:
    std::string label_;
    std::chrono::steady_clock::time_point start_;
    mutable int reads_ = 0;
    static int live_;
    static int made_;
};

int Timer::live_ = 0;
int Timer::made_ = 0;

__global__ void fill(int *v, int n, Op op) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) v[i] = i * scale(op);
}

template <typename To, typename From>
To convert(From x) { return static_cast<To>(x); }

int padded(int n, int multiple = 4, int extra = 0) { return (n + multiple - 1) / multiple * multiple + extra; }

int main() {
    std::cout << "live at start " << Timer::live() << std::endl;
    Timer total("total");
    int sum = 0;
    {
        Timer t("kernel");
        std::cout << "live inside " << Timer::live() << ", label " << t.label() << std::endl;
        const int n = 8;
        int *d;
        cudaMalloc(&d, n * sizeof(int));
        fill<<<2, 4>>>(d, n, Op::Triple);
        int h[n];
        cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost);
        cudaFree(d);
        for (int x : h) sum += x;
        std::cout << "kernel time non-negative: " << (t.elapsedMs() >= 0.0 ? "yes" : "no") << std::endl;
    }
    std::cout << "live after " << Timer::live() << ", made " << Timer::made() << std::endl;
    std::cout << "sum " << sum << " with " << opName(Op::Triple) << std::endl;
    const Timer &ref = total;
    ref.reads();
    ref.reads();
    std::cout << "reads " << ref.reads() << std::endl;
    const Op shown[] = {Op::Double, Op::Negate};
    for (Op op : shown) std::cout << opName(op) << " -> " << scale(op) * 5 << std::endl;
    std::cout << "padded " << padded(10) << " " << padded(10, 8) << " " << padded(10, 8, 1) << std::endl;
    std::cout << "convert " << convert<int>(3.99) << " " << convert<char, int>(66) << " "
              << convert<double>(7) / 2 << std::endl;
    return 0;
}
