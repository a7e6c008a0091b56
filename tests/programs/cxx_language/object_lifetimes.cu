// Object lifetimes as C++ defines them: globals with dynamic initialisers built before main
// in definition order and destroyed after it in reverse, temporaries destroyed at the end
// of their full expression, by-value parameters, new/delete, members destroyed after their
// class's destructor, and a namespace-scope const read in a kernel.
#include <cstdio>

#define imin(a, b) (a < b ? a : b)

struct Tracer {
    int id;
    Tracer(int i) : id(i) { printf("  + %d\n", id); }
    Tracer(const Tracer &o) : id(o.id + 100) { printf("  + copy %d\n", id); }
    ~Tracer() { printf("  - %d\n", id); }
    int twice() const { return 2 * id; }
};

struct Pair {
    Tracer a;
    Tracer b;
    Pair(int x) : a(x), b(x + 1) { printf("  pair %d built\n", x); }
};

struct Holder {
    Tracer t;
    int n;
};

static int computeSize() { printf("computeSize\n"); return 3 * 128 + 16; }

const int N = 1000;
const int blocks = imin(32, (N + 255) / 256);
Tracer first(1);
const int gSize = computeSize();
Tracer second(2);
float gScale = gSize / 100.0f;

void byValue(Tracer t) { printf("  in byValue %d\n", t.id); }
void byRef(const Tracer &t) { printf("  in byRef %d (twice %d)\n", t.id, t.twice()); }
Tracer make(int i) { return Tracer(i); }
Tracer pass(Tracer t) { return t; }

// Each of the 4 threads writes N + blocks + its index: 1004 1005 1006 1007.
__global__ void fill(int *out) { out[threadIdx.x] = N + blocks + threadIdx.x; }

int main()
{
    printf("main: gSize %d, gScale %.2f, blocks %d\n", gSize, gScale, blocks);
    printf("temporaries:\n");
    byValue(Tracer(10));
    printf("  next\n");
    byRef(Tracer(11));
    printf("  next\n");
    int v = Tracer(12).twice() + make(13).twice();
    printf("  v = %d\n", v);
    make(14);
    printf("copies:\n");
    {
        Tracer a(20);
        Tracer b = pass(a);
        const Tracer &r = make(21);
        printf("  b %d, r %d\n", b.id, r.id);
    }
    printf("members:\n");
    {
        Pair p(30);
        Holder h = {Tracer(40), 5};
        printf("  holder %d %d\n", h.t.id, h.n);
    }
    printf("heap:\n");
    Pair *q = new Pair(50);
    delete q;
    int *d;
    cudaMalloc(&d, 4 * sizeof(int));
    fill<<<1, 4>>>(d);
    int h[4];
    cudaMemcpy(h, d, sizeof(h), cudaMemcpyDeviceToHost);
    cudaFree(d);
    printf("kernel: %d %d %d %d\n", h[0], h[1], h[2], h[3]);
    printf("end of main\n");
    return 0;
}
