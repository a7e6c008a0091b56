// A host matrix class template with operator(), copy construction, a static instance
// counter and a static factory; its device half is a view struct passed by value.
#include <cstdio>
#include <cstring>

template <typename T>
struct MatrixView {
    T *data;
    int rows, cols;
    __device__ T &operator()(int r, int c) { return data[r * cols + c]; }
    __device__ const T &operator()(int r, int c) const { return data[r * cols + c]; }
};

template <typename T>
class Matrix {
public:
    Matrix(int rows, int cols) : rows_(rows), cols_(cols), data_(new T[rows * cols])
    {
        memset(data_, 0, bytes());
        ++live;
    }
    Matrix(const Matrix &other) : rows_(other.rows_), cols_(other.cols_), data_(new T[other.rows_ * other.cols_])
    {
        memcpy(data_, other.data_, bytes());
        ++live;
    }
    ~Matrix()
    {
        delete[] data_;
        --live;
    }
    T &operator()(int r, int c) { return data_[r * cols_ + c]; }
    const T &operator()(int r, int c) const { return data_[r * cols_ + c]; }
    int rows() const { return rows_; }
    int cols() const { return cols_; }
    size_t bytes() const { return sizeof(T) * rows_ * cols_; }
    T *data() { return data_; }
    T trace() const
    {
        T t = 0;
        for (int i = 0; i < rows_ && i < cols_; ++i) t += (*this)(i, i);
        return t;
    }
    static Matrix identity(int n)
    {
        Matrix m(n, n);
        for (int i = 0; i < n; ++i) m(i, i) = 1;
        return m;
    }
    static int live;

private:
    int rows_, cols_;
    T *data_;
};

template <typename T>
int Matrix<T>::live = 0;

template <typename T>
__global__ void addScaledIdentity(MatrixView<T> m, T s)
{
    int r = blockIdx.y * blockDim.y + threadIdx.y;
    int c = blockIdx.x * blockDim.x + threadIdx.x;
    if (r < m.rows && c < m.cols) m(r, c) = m(r, c) * 2 + (r == c ? s : T(0));
}

int main()
{
    Matrix<int> a(20, 30);
    for (int r = 0; r < a.rows(); ++r)
        for (int c = 0; c < a.cols(); ++c) a(r, c) = r - c;
    Matrix<int> b = a;
    printf("live matrices: %d\n", Matrix<int>::live);

    int *d;
    cudaMalloc(&d, b.bytes());
    cudaMemcpy(d, b.data(), b.bytes(), cudaMemcpyHostToDevice);
    MatrixView<int> view = {d, b.rows(), b.cols()};
    dim3 block(16, 8);
    dim3 grid((b.cols() + 15) / 16, (b.rows() + 7) / 8);
    addScaledIdentity<<<grid, block>>>(view, 5);
    cudaMemcpy(b.data(), d, b.bytes(), cudaMemcpyDeviceToHost);
    cudaFree(d);
    printf("a(3,1)=%d b(3,1)=%d b(4,4)=%d trace a=%d trace b=%d\n", a(3, 1), b(3, 1), b(4, 4), a.trace(), b.trace());
    {
        Matrix<double> id = Matrix<double>::identity(4);
        printf("identity trace %.1f, live double matrices %d\n", id.trace(), Matrix<double>::live);
    }
    printf("live double matrices after scope: %d\n", Matrix<double>::live);
    return 0;
}
