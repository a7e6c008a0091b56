// A course-exercise style matrix program: a host Matrix class owning its storage (rule of
// three by hand), operator() for element access, a device-side view passed to a templated
// kernel by value, a templated launcher that rounds the grid up, and an error-checking
// macro that throws std::runtime_error (no call fails here, so nothing is thrown).
// Kernel output worked out by hand: C = A * B for A(i, k) = i + k and B(k, j) = k == j ? 2 : 0
// (4x4), so C(i, j) = 2 * (i + j); row 3 is 6 8 10 12 and the trace is 2 * (0+2+4+6) = 24.
#include <cstdio>
#include <iostream>
#include <stdexcept>
#include <string>
#include <sstream>

#define CUDA_CHECK(call)                                                          \
    do {                                                                          \
        cudaError_t err_ = (call);                                                \
        if (err_ != cudaSuccess) {                                                \
            std::ostringstream msg;                                               \
            msg << "CUDA error at " << __LINE__ << ": " << cudaGetErrorString(err_); \
            throw std::runtime_error(msg.str());                                  \
        }                                                                         \
    } while (0)

template <typename T>
struct MatView {
    T *data;
    int rows, cols;
    __host__ __device__ T &operator()(int r, int c) { return data[r * cols + c]; }
    __host__ __device__ const T &operator()(int r, int c) const { return data[r * cols + c]; }
};

template <typename T>
class Matrix {
public:
    Matrix(int rows, int cols, T init = T()) : rows_(rows), cols_(cols), host_(new T[rows * cols]) {
        for (int i = 0; i < rows * cols; ++i) host_[i] = init;
    }
    Matrix(const Matrix &other) : rows_(other.rows_), cols_(other.cols_), host_(new T[other.size()]) {
        for (int i = 0; i < size(); ++i) host_[i] = other.host_[i];
    }
    ~Matrix() { delete[] host_; }
    T &operator()(int r, int c) { return host_[r * cols_ + c]; }
    const T &operator()(int r, int c) const { return host_[r * cols_ + c]; }
    int rows() const { return rows_; }
    int cols() const { return cols_; }
    int size() const { return rows_ * cols_; }
    T *data() { return host_; }
    std::string shape() const { return std::to_string(rows_) + "x" + std::to_string(cols_); }

private:
    int rows_, cols_;
    T *host_;
};

template <typename T>
__global__ void matmul(MatView<T> a, MatView<T> b, MatView<T> c) {
    int row = blockIdx.y * blockDim.y + threadIdx.y;
    int col = blockIdx.x * blockDim.x + threadIdx.x;
    if (row < c.rows && col < c.cols) {
        T sum = 0;
        for (int k = 0; k < a.cols; ++k) sum += a(row, k) * b(k, col);
        c(row, col) = sum;
    }
}

template <typename T>
MatView<T> upload(Matrix<T> &m) {
    MatView<T> v;
    v.rows = m.rows();
    v.cols = m.cols();
    CUDA_CHECK(cudaMalloc(&v.data, m.size() * sizeof(T)));
    CUDA_CHECK(cudaMemcpy(v.data, m.data(), m.size() * sizeof(T), cudaMemcpyHostToDevice));
    return v;
}

template <typename T>
void launchMatmul(MatView<T> a, MatView<T> b, MatView<T> c, int tile = 2) {
    dim3 block(tile, tile);
    dim3 grid((c.cols + tile - 1) / tile, (c.rows + tile - 1) / tile);
    matmul<T><<<grid, block>>>(a, b, c);
    CUDA_CHECK(cudaGetLastError());
    CUDA_CHECK(cudaDeviceSynchronize());
}

int main() {
    const int n = 4;
    Matrix<float> a(n, n), b(n, n), c(n, n, -1.0f);
    for (int i = 0; i < n; ++i)
        for (int j = 0; j < n; ++j) {
            a(i, j) = float(i + j);
            b(i, j) = i == j ? 2.0f : 0.0f;
        }
    Matrix<float> copy = a;
    copy(0, 0) = 100.0f;
    std::cout << "a is " << a.shape() << ", a(0,0) = " << a(0, 0) << ", copy(0,0) = " << copy(0, 0) << std::endl;
    try {
        MatView<float> da = upload(a), db = upload(b), dc = upload(c);
        launchMatmul(da, db, dc);
        CUDA_CHECK(cudaMemcpy(c.data(), dc.data, c.size() * sizeof(float), cudaMemcpyDeviceToHost));
        cudaFree(da.data);
        cudaFree(db.data);
        cudaFree(dc.data);
    } catch (const std::runtime_error &e) {
        std::cout << "failed: " << e.what() << std::endl;
        return 1;
    }
    std::cout << "row 3:";
    for (int j = 0; j < n; ++j) std::cout << " " << c(3, j);
    std::cout << std::endl;
    float trace = 0;
    for (int i = 0; i < n; ++i) trace += c(i, i);
    printf("trace %.1f\n", trace);
    return 0;
}
