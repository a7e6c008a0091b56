// Destructors in C++ order: a derived class's body first, then its members in reverse
// order of declaration, then its base (through two levels of bases too); at a `return`
// inside a destructor as well; a class declaring no destructor still destroys its
// members and base; a constructor without an initialiser for its base default-constructs
// it.  A kernel's local object runs its __device__ destructors the same way: each of the
// 4 threads adds 1 (~Tally) then 10 (~Counter) to total[0], which ends at 44.
// Host output checked with g++.
#include <cstdio>

struct Part {
    int n;
    Part() : n(0) { printf("Part()\n"); }
    Part(int k) : n(k) { printf("Part(%d)\n", k); }
    ~Part() { printf("~Part %d\n", n); }
};

struct Base {
    int id;
    Base() : id(7) { printf("Base() %d\n", id); }
    Base(int i) : id(i) { printf("Base(%d)\n", id); }
    ~Base() { printf("~Base %d\n", id); }
};

struct Derived : public Base {
    int extra;
    Derived() { extra = id * 2; printf("Derived() %d\n", extra); }
    Derived(int i) : Base(i), extra(i + 1) { printf("Derived(%d)\n", i); }
    ~Derived() { printf("~Derived %d\n", extra); }
};

struct Leaf : Derived {
    Leaf() : Derived(3) { printf("Leaf()\n"); }
    ~Leaf() { printf("~Leaf\n"); }
};

struct Holder : Base {
    Part a;
    Part b;
    Holder() : a(1), b(4) { printf("Holder()\n"); }
    ~Holder()
    {
        printf("~Holder\n");
        if (a.n == 1) return;
        printf("not reached\n");
    }
};

struct Plain : Base {   // no destructor of its own: ~Part, then ~Base, still run
    Part extra;
    Plain() : extra(5) {}
};

namespace sim {
struct Grid : Base {
    Part p;
    Grid() : p(9) {}
};
}

struct Counter {
    int *total;
    __device__ Counter(int *t) : total(t) {}
    __device__ ~Counter() { atomicAdd(total, 10); }
};

struct Tally : Counter {
    __device__ Tally(int *t) : Counter(t) {}
    __device__ ~Tally() { atomicAdd(total, 1); }
};

__global__ void tally(int *total)
{
    Tally t(total);
}

int main()
{
    {
        Derived d;
        printf("in block %d %d\n", d.id, d.extra);
    }
    {
        Derived e(5);
        Leaf l;
    }
    { Holder h; printf("h %d %d\n", h.id, h.b.n); }
    { Plain p; printf("plain %d %d\n", p.id, p.extra.n); }
    { sim::Grid g; printf("grid %d\n", g.p.n); }
    int *total, result = 0;
    cudaMalloc(&total, sizeof(int));
    cudaMemset(total, 0, sizeof(int));
    tally<<<1, 4>>>(total);
    cudaMemcpy(&result, total, sizeof(int), cudaMemcpyDeviceToHost);
    cudaFree(total);
    printf("total %d\n", result);
    printf("end\n");
    return 0;
}
