// A device array view passed by value: operator[] for element access, a conversion
// operator to bool, a size() member, and a host-side owning class that hands it out.
#include <cstdio>

template <typename T>
class DeviceSpan {
public:
    __host__ __device__ DeviceSpan(T *p, int n) : ptr_(p), n_(n) {}
    __host__ __device__ T &operator[](int i) { return ptr_[i]; }
    __host__ __device__ const T &operator[](int i) const { return ptr_[i]; }
    __host__ __device__ int size() const { return n_; }
    __host__ __device__ explicit operator bool() const { return ptr_ != nullptr && n_ > 0; }

private:
    T *ptr_;
    int n_;
};

template <typename T>
class DeviceVector {
public:
    explicit DeviceVector(int n) : n_(n) { cudaMalloc(&ptr_, n * sizeof(T)); }
    ~DeviceVector() { cudaFree(ptr_); }
    DeviceSpan<T> span() { return DeviceSpan<T>(ptr_, n_); }
    void copyFrom(const T *h) { cudaMemcpy(ptr_, h, n_ * sizeof(T), cudaMemcpyHostToDevice); }
    void copyTo(T *h) const { cudaMemcpy(h, ptr_, n_ * sizeof(T), cudaMemcpyDeviceToHost); }

private:
    T *ptr_ = nullptr;
    int n_;
};

__global__ void blend(DeviceSpan<const float> a, DeviceSpan<const float> b, DeviceSpan<float> out, float t)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (!out || i >= out.size()) return;
    out[i] = a[i] * (1.0f - t) + b[i] * t;
}

int main()
{
    const int n = 1000;
    float ha[n], hb[n], hc[n];
    for (int i = 0; i < n; i++) {
        ha[i] = (float)(i % 8);
        hb[i] = (float)(i % 4) * 4.0f;
    }
    DeviceVector<float> a(n), b(n), c(n);
    a.copyFrom(ha);
    b.copyFrom(hb);
    DeviceSpan<float> sa = a.span(), sb = b.span();
    DeviceSpan<const float> ca(&sa[0], sa.size()), cb(&sb[0], sb.size());
    blend<<<(n + 255) / 256, 256>>>(ca, cb, c.span(), 0.25f);
    c.copyTo(hc);
    double s = 0;
    for (int i = 0; i < n; i++) s += hc[i];
    printf("hc[0..3] = %.4f %.4f %.4f %.4f, sum %.2f\n", hc[0], hc[1], hc[2], hc[3], s);
    DeviceSpan<float> empty(nullptr, 0);
    printf("span sizes %d %d, empty is %s\n", ca.size(), c.span().size(), empty ? "valid" : "empty");
    return 0;
}
