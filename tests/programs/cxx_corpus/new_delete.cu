// new/new[]/delete/delete[] on the host, and a class owning device memory that frees it
// in its destructor (RAII), used through a pointer from new.
#include <cstdio>
#include <cuda_runtime.h>

class DeviceBuffer {
public:
    explicit DeviceBuffer(int n) : n_(n), ptr_(nullptr)
    {
        cudaMalloc((void **)&ptr_, n * sizeof(int));
        printf("DeviceBuffer(%d) allocated\n", n);
    }
    ~DeviceBuffer()
    {
        cudaFree(ptr_);
        printf("DeviceBuffer(%d) freed\n", n_);
    }
    int *get() const { return ptr_; }
    int size() const { return n_; }
    void upload(const int *h) { cudaMemcpy(ptr_, h, n_ * sizeof(int), cudaMemcpyHostToDevice); }
    void download(int *h) const { cudaMemcpy(h, ptr_, n_ * sizeof(int), cudaMemcpyDeviceToHost); }

private:
    int n_;
    int *ptr_;
};

struct Node {
    int value;
    Node *next;
};

__global__ void square(int *p, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) p[i] = p[i] * p[i];
}

int main()
{
    const int n = 1000;
    int *h = new int[n];
    for (int i = 0; i < n; i++) h[i] = i - 500;

    DeviceBuffer *buf = new DeviceBuffer(n);
    buf->upload(h);
    square<<<(n + 127) / 128, 128>>>(buf->get(), buf->size());
    int *result = new int[n]();
    buf->download(result);
    delete buf;

    long total = 0;
    for (int i = 0; i < n; i++) total += result[i];
    printf("result[0]=%d result[500]=%d result[999]=%d total=%ld\n", result[0], result[500], result[999], total);

    Node *head = nullptr;
    for (int i = 0; i < 5; i++) {
        Node *node = new Node;
        node->value = result[i * 100];
        node->next = head;
        head = node;
    }
    printf("list:");
    while (head) {
        Node *next = head->next;
        printf(" %d", head->value);
        delete head;
        head = next;
    }
    printf("\n");

    double *one = new double(2.5);
    printf("single new: %.2f\n", *one * 2);
    delete one;
    delete[] h;
    delete[] result;
    {
        DeviceBuffer scoped(16);
        printf("scoped buffer of %d\n", scoped.size());
    }
    printf("done\n");
    return 0;
}
