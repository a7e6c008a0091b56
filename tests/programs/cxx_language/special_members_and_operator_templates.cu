// Special member functions declared `= default` and `= delete`, and free operator
// templates over a class template, as RAII and math-type code in CUDA courses writes
// them: a Stats class with a defaulted default constructor beside a converting one,
// defaulted copy constructor, copy assignment and destructor (member-by-member copies);
// a non-copyable Stream-like class (deleted copy) passed by reference; and
// `template <class T> Pair<T> operator+(...)` / `operator<<` picked for Pair<float> and
// Pair<int> operands.  The kernel adds Pair{i, 2i} to itself with the operator template:
// out[i] = (2i, 4i), worked out by hand (host output recorded from g++).
#include <iostream>
#include <string>

struct Stats {
    int count = 0;
    float sum = 0;
    Stats() = default;
    Stats(int c, float s) : count(c), sum(s) {}
    Stats(const Stats &) = default;
    Stats &operator=(const Stats &) = default;
    ~Stats() = default;
};

class Stream {
public:
    explicit Stream(const std::string &name) : name_(name) { std::cout << "open " << name_ << std::endl; }
    ~Stream() { std::cout << "close " << name_ << std::endl; }
    Stream(const Stream &) = delete;
    Stream &operator=(const Stream &) = delete;
    const std::string &name() const { return name_; }

private:
    std::string name_;
};

template <typename T>
struct Pair {
    T a, b;
};

template <typename T>
__host__ __device__ Pair<T> operator+(const Pair<T> &x, const Pair<T> &y)
{
    Pair<T> r;
    r.a = x.a + y.a;
    r.b = x.b + y.b;
    return r;
}

template <typename T>
std::ostream &operator<<(std::ostream &os, const Pair<T> &p)
{
    return os << '<' << p.a << ", " << p.b << '>';
}

__global__ void doubled(Pair<int> *out, int n)
{
    int i = threadIdx.x;
    if (i < n) {
        Pair<int> p;
        p.a = i;
        p.b = 2 * i;
        out[i] = p + p;
    }
}

void describe(const Stream &s, const Stats &st) { std::cout << s.name() << ": " << st.count << " items, sum " << st.sum << std::endl; }

int main()
{
    Stats empty;
    Stats some(3, 4.5f);
    Stats copy(some);
    empty = copy;
    Stream s("stats");
    describe(s, empty);
    std::cout << "default-constructed: " << Stats().count << ", " << Stats().sum << std::endl;

    Pair<float> f1 = {1.5f, 2.0f}, f2 = {0.25f, -1.0f};
    std::cout << f1 + f2 << ' ' << f1 << std::endl;

    const int n = 4;
    Pair<int> *d;
    cudaMalloc(&d, n * sizeof(Pair<int>));
    doubled<<<1, n>>>(d, n);
    Pair<int> h[n];
    cudaMemcpy(h, d, sizeof(h), cudaMemcpyDeviceToHost);
    cudaFree(d);
    for (int i = 0; i < n; ++i) std::cout << h[i] << (i + 1 < n ? " " : "\n");
    return 0;
}
