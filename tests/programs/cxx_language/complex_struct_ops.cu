// A complex-number class template with operator overloading used on host and device
// (the Julia/Mandelbrot tutorial's cuComplex, templated), compound assignment, an
// operator<< template and a static factory.  Each thread i raises z_i = (i, 1) to the 3rd power
// by repeated multiplication and adds c = (1, -1): (i + j)^3 = i^3 - 3i + (3i^2 - 1)j,
// so out_i = (i^3 - 3i + 1, 3i^2 - 2), small integers, exact; worked out by hand and
// rechecked on the host with the same template.
#include <iostream>
#include <vector>

template <typename T>
class Complex {
public:
    T re, im;
    __host__ __device__ Complex(T r = T(), T i = T()) : re(r), im(i) {}
    __host__ __device__ static Complex unit() { return Complex(T(1), T(0)); }
    __host__ __device__ Complex operator*(const Complex &o) const { return Complex(re * o.re - im * o.im, re * o.im + im * o.re); }
    __host__ __device__ Complex &operator*=(const Complex &o) {
        *this = *this * o;
        return *this;
    }
    __host__ __device__ Complex operator+(const Complex &o) const { return Complex(re + o.re, im + o.im); }
    __host__ __device__ T norm2() const { return re * re + im * im; }
};

template <typename T>
std::ostream &operator<<(std::ostream &os, const Complex<T> &c)
{
    os << c.re << (c.im < 0 ? " - " : " + ") << (c.im < 0 ? -c.im : c.im) << "i";
    return os;
}

template <typename T>
__host__ __device__ Complex<T> cube_plus(Complex<T> z, Complex<T> c)
{
    Complex<T> p = Complex<T>::unit();
    for (int k = 0; k < 3; ++k) p *= z;
    return p + c;
}

__global__ void eval(Complex<float> *out, float *norms, int n)
{
    int i = threadIdx.x;
    if (i < n) {
        out[i] = cube_plus(Complex<float>(i, 1), Complex<float>(1, -1));
        norms[i] = out[i].norm2();
    }
}

int main()
{
    const int n = 4;
    Complex<float> *dOut;
    float *dNorms;
    cudaMalloc(&dOut, n * sizeof(Complex<float>));
    cudaMalloc(&dNorms, n * sizeof(float));
    eval<<<1, n>>>(dOut, dNorms, n);
    std::vector<Complex<float>> out(n);
    std::vector<float> norms(n);
    cudaMemcpy(out.data(), dOut, n * sizeof(Complex<float>), cudaMemcpyDeviceToHost);
    cudaMemcpy(norms.data(), dNorms, n * sizeof(float), cudaMemcpyDeviceToHost);
    cudaFree(dOut);
    cudaFree(dNorms);
    for (int i = 0; i < n; ++i) {
        Complex<int> h = cube_plus(Complex<int>(i, 1), Complex<int>(1, -1));
        bool ok = h.re == out[i].re && h.im == out[i].im;
        std::cout << "z" << i << "^3 + c = " << out[i] << ", |.|^2 = " << norms[i] << (ok ? "" : " MISMATCH") << std::endl;
    }
    return 0;
}
