// Operator overloading on a complex-number struct used in host and device code: +, -, *,
// ==, unary -, += and a friend-free free operator<<, with a templated power function run in a
// kernel over Gaussian integers (exact, so the GPU's results equal the host's), checked
// against the same code on the host.
// Kernel output worked out by hand: thread t raises z = (1 + t) + i to the 4th power:
// (1+i)^4 = -4, (2+i)^4 = -7+24i, (3+i)^4 = 28+96i, (4+i)^4 = 161+240i.
#include <cstdio>
#include <iostream>

template <typename T>
struct Complex {
    T re, im;
    __host__ __device__ Complex(T r = 0, T i = 0) : re(r), im(i) {}
    __host__ __device__ Complex operator+(const Complex &o) const { return Complex(re + o.re, im + o.im); }
    __host__ __device__ Complex operator-(const Complex &o) const { return Complex(re - o.re, im - o.im); }
    __host__ __device__ Complex operator*(const Complex &o) const {
        return Complex(re * o.re - im * o.im, re * o.im + im * o.re);
    }
    __host__ __device__ Complex operator-() const { return Complex(-re, -im); }
    __host__ __device__ Complex &operator+=(const Complex &o) {
        re += o.re;
        im += o.im;
        return *this;
    }
    __host__ __device__ bool operator==(const Complex &o) const { return re == o.re && im == o.im; }
    __host__ __device__ T norm2() const { return re * re + im * im; }
};

template <typename T>
std::ostream &operator<<(std::ostream &os, const Complex<T> &z) {
    os << z.re;
    if (z.im >= 0) os << "+";
    return os << z.im << "i";
}

template <typename T>
__host__ __device__ Complex<T> power(Complex<T> z, int k) {
    Complex<T> r(1);
    for (int i = 0; i < k; ++i) r = r * z;
    return r;
}

__global__ void powers(Complex<long long> *out, int k) {
    int t = threadIdx.x;
    Complex<long long> z(1 + t, 1);
    out[t] = power(z, k);
}

int main() {
    const int n = 4, k = 4;
    Complex<long long> *d;
    cudaMalloc(&d, n * sizeof(Complex<long long>));
    powers<<<1, n>>>(d, k);
    Complex<long long> h[n];
    cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost);
    cudaFree(d);
    Complex<long long> total;
    for (int t = 0; t < n; ++t) {
        Complex<long long> expect = power(Complex<long long>(1 + t, 1), k);
        std::cout << "(" << Complex<long long>(1 + t, 1) << ")^" << k << " = " << h[t]
                  << (h[t] == expect ? " ok" : " MISMATCH") << std::endl;
        total += h[t];
    }
    std::cout << "sum " << total << ", negated " << -total << ", |sum|^2 " << total.norm2() << std::endl;
    Complex<int> a(3, -2), b(-1, 5);
    std::cout << a << " + " << b << " = " << a + b << ", difference " << a - b << ", product " << a * b << std::endl;
    return 0;
}
