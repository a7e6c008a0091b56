// Construction and destruction order of host objects (locals, members, temporaries,
// arrays), static data members and static member functions, printed as they happen.
#include <cstdio>

class Tracer {
public:
    Tracer(const char *name) : name_(name), id_(++created) { printf("  + %s #%d\n", name_, id_); }
    Tracer(const Tracer &o) : name_(o.name_), id_(++created) { printf("  + copy of %s #%d\n", name_, id_); }
    ~Tracer()
    {
        ++destroyed;
        printf("  - %s #%d\n", name_, id_);
    }
    static int alive() { return created - destroyed; }
    static int created;
    static int destroyed;

private:
    const char *name_;
    int id_;
};

int Tracer::created = 0;
int Tracer::destroyed = 0;

struct Pipeline {
    Tracer input;
    Tracer output;
    int *d_buf;
    Pipeline() : input("input"), output("output"), d_buf(nullptr) { cudaMalloc(&d_buf, 32 * sizeof(int)); }
    ~Pipeline() { cudaFree(d_buf); }
};

__global__ void iota(int *p)
{
    p[threadIdx.x] = threadIdx.x * threadIdx.x;
}

Tracer byValue(Tracer t)
{
    printf("  in byValue, alive %d\n", Tracer::alive());
    return t;
}

int main()
{
    printf("start\n");
    {
        Pipeline p;
        iota<<<1, 32>>>(p.d_buf);
        int h[32];
        cudaMemcpy(h, p.d_buf, sizeof(h), cudaMemcpyDeviceToHost);
        printf("  h[31] = %d, alive %d\n", h[31], Tracer::alive());
    }
    printf("after pipeline, alive %d\n", Tracer::alive());
    {
        Tracer a("a");
        Tracer b = byValue(a);
        printf("  alive %d\n", Tracer::alive());
    }
    printf("after copies, alive %d\n", Tracer::alive());
    {
        Tracer *heap = new Tracer("heap");
        delete heap;
    }
    printf("created %d destroyed %d\n", Tracer::created, Tracer::destroyed);
    return 0;
}
