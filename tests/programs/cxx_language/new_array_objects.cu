// new T[n] / delete[] of classes with constructors and destructors, on the host heap and in a
// kernel on the device heap: each element default-constructed in order, destroyed last first
// (the count kept in an array cookie before the elements, as the Itanium C++ ABI lays it out),
// `new T[n]()` and `new T[n]{}` value-initialised, `delete[]` of a null pointer doing nothing;
// `new T{args}` as `new T(args)` (a std::vector's from its initializer list).
// Kernel output worked out by hand: make_particles<<<1, 2>>>(3) gives each thread three
// Particles (mass 1.5), adds i + 10 * tid to particle i's mass, and delete[] destroys them last
// first; a warp prints in lockstep, so each line shows thread 0 then thread 1:
// 3.5 13.5, 2.5 12.5, 1.5 11.5. out[tid] = total mass: 7.5 and 37.5.
#include <cstdio>
#include <vector>

struct Counter {
    int id;
    Counter() : id(next++) { printf("construct %d\n", id); }
    ~Counter() { printf("destroy %d\n", id); }
    static int next;
};
int Counter::next = 0;

struct Cell {
    int value;
    Cell() : value(7) {}   // a constructor and no destructor: no cookie
};

struct Handle {
    int fd;
    ~Handle() { printf("close %d\n", fd); }   // a destructor and no constructor
};

struct Wide {
    double weight;
    char tag;
    Wide() : weight(0.25), tag('w') {}
    ~Wide() { live--; }
    static int live;
};
int Wide::live = 0;

struct Particle {
    float mass;
    __device__ Particle() : mass(1.5f) {}
    __device__ ~Particle() { printf("particle %.1f\n", mass); }
};

__global__ void make_particles(int n, float *out)
{
    Particle *ps = new Particle[n];
    float total = 0;
    for (int i = 0; i < n; i++) {
        ps[i].mass += i + 10 * threadIdx.x;
        total += ps[i].mass;
    }
    out[threadIdx.x] = total;
    delete[] ps;
}

Counter *make_counters(int n)
{
    return new Counter[n];
}

int main()
{
    Counter *c = make_counters(3);
    printf("ids %d %d %d\n", c[0].id, c[1].id, c[2].id);
    delete[] c;

    Cell *cells = new Cell[4];
    int sum = 0;
    for (int i = 0; i < 4; i++) sum += cells[i].value;
    printf("cells sum %d\n", sum);
    delete[] cells;

    Handle *hs = new Handle[3]();
    printf("value-initialised %d %d %d\n", hs[0].fd, hs[1].fd, hs[2].fd);
    hs[0].fd = 3;
    hs[2].fd = 5;
    delete[] hs;

    int n = 5;
    Wide::live = n;
    Wide *w = new Wide[n];
    printf("wide %.2f %c %.2f %c\n", w[0].weight, w[0].tag, w[n - 1].weight, w[n - 1].tag);
    delete[] w;
    printf("wide live %d\n", Wide::live);

    Counter *none = new Counter[0];
    delete[] none;
    Counter *null = nullptr;
    delete[] null;
    Counter *one = new Counter[1];
    delete[] one;

    int *zeros = new int[3]{};
    int *five = new int{5};
    Counter *braced = new Counter[2]{};
    std::vector<int> *listed = new std::vector<int>{4, 5, 6};
    printf("braced %d %d %d %zu %d\n", zeros[2], *five, braced[1].id, listed->size(), (*listed)[2]);
    delete[] zeros;
    delete five;
    delete[] braced;
    delete listed;

    float *d_out;
    cudaMalloc(&d_out, 2 * sizeof(float));
    make_particles<<<1, 2>>>(3, d_out);
    float h_out[2];
    cudaMemcpy(h_out, d_out, sizeof(h_out), cudaMemcpyDeviceToHost);
    printf("totals %.1f %.1f\n", h_out[0], h_out[1]);
    cudaFree(d_out);
    return 0;
}
