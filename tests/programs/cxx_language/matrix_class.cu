// A small matrix class with operator() indexing on the host, and a plain view struct
// with a __device__ operator() that the kernel indexes the same way, as matrix-multiply
// lessons do.  A(r,c) = r + c, B(r,c) = r == c ? 2 : (c - r); C = A * B on the device
// and on the host; all entries are small integers, so exact, and the host product
// (printed alongside) is the check.
#include <iomanip>
#include <iostream>
#include <vector>

class Matrix {
public:
    Matrix(int rows, int cols) : rows_(rows), cols_(cols), data_(rows * cols, 0.0f) {}
    float &operator()(int r, int c) { return data_[r * cols_ + c]; }
    float operator()(int r, int c) const { return data_[r * cols_ + c]; }
    int rows() const { return rows_; }
    int cols() const { return cols_; }
    float *data() { return data_.data(); }
    const float *data() const { return data_.data(); }
    size_t bytes() const { return data_.size() * sizeof(float); }
    Matrix operator*(const Matrix &o) const
    {
        Matrix out(rows_, o.cols_);
        for (int r = 0; r < rows_; ++r)
            for (int c = 0; c < o.cols_; ++c) {
                float s = 0;
                for (int k = 0; k < cols_; ++k) s += (*this)(r, k) * o(k, c);
                out(r, c) = s;
            }
        return out;
    }

private:
    int rows_, cols_;
    std::vector<float> data_;
};

struct DeviceView {
    float *p;
    int cols;
    __device__ float &operator()(int r, int c) const { return p[r * cols + c]; }
};

__global__ void matmul(DeviceView a, DeviceView b, DeviceView c, int n, int k, int m)
{
    int row = blockIdx.y * blockDim.y + threadIdx.y;
    int col = blockIdx.x * blockDim.x + threadIdx.x;
    if (row < n && col < m) {
        float s = 0;
        for (int i = 0; i < k; ++i) s += a(row, i) * b(i, col);
        c(row, col) = s;
    }
}

void print(const char *name, const Matrix &m)
{
    std::cout << name << ":" << std::endl;
    for (int r = 0; r < m.rows(); ++r) {
        for (int c = 0; c < m.cols(); ++c) std::cout << std::setw(5) << m(r, c);
        std::cout << std::endl;
    }
}

int main()
{
    const int n = 3, k = 4, m = 5;
    Matrix a(n, k), b(k, m), c(n, m);
    for (int r = 0; r < n; ++r)
        for (int col = 0; col < k; ++col) a(r, col) = r + col;
    for (int r = 0; r < k; ++r)
        for (int col = 0; col < m; ++col) b(r, col) = r == col ? 2 : col - r;
    float *da, *db, *dc;
    cudaMalloc(&da, a.bytes());
    cudaMalloc(&db, b.bytes());
    cudaMalloc(&dc, c.bytes());
    cudaMemcpy(da, a.data(), a.bytes(), cudaMemcpyHostToDevice);
    cudaMemcpy(db, b.data(), b.bytes(), cudaMemcpyHostToDevice);
    dim3 block(4, 2);
    dim3 grid((m + block.x - 1) / block.x, (n + block.y - 1) / block.y);
    matmul<<<grid, block>>>(DeviceView{da, k}, DeviceView{db, m}, DeviceView{dc, m}, n, k, m);
    cudaMemcpy(c.data(), dc, c.bytes(), cudaMemcpyDeviceToHost);
    print("device C", c);
    Matrix h = a * b;
    bool same = true;
    for (int r = 0; r < n; ++r)
        for (int col = 0; col < m; ++col) same = same && h(r, col) == c(r, col);
    std::cout << "host product " << (same ? "matches" : "differs") << std::endl;
    cudaFree(da);
    cudaFree(db);
    cudaFree(dc);
    return 0;
}
