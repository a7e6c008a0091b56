// std::vector and std::pair as host code uses them around a kernel: growth by push_back
// (libstdc++'s capacities 1 2 4 8 16), resize/reserve/clear, deep copies by construction,
// assignment, by-value parameters and returns, iterators and range-based for, vectors of
// structs, initializer lists, a vector's data() as a cudaMemcpy source and destination, and
// vectors of classes with constructors and destructors, of vectors and of pairs.
// Kernel output worked out by hand: scale<<<1, 32>>> doubles h[i] = 1.5 + i for i < 8:
// 3.0 5.0 7.0 ... 17.0, sum 80.0.
#include <cstdio>
#include <utility>
#include <vector>

struct Point {
    float x, y;
};

struct Tracked {
    int v;
    Tracked() : v(-1) { live++; }
    Tracked(int x) : v(x) { live++; }
    Tracked(const Tracked &o) : v(o.v) { live++; }
    ~Tracked() { live--; }
    static int live;
};
int Tracked::live = 0;

// Vectors whose elements are classes with constructors and destructors. (How many Tracked
// objects live while the vector does differs from libstdc++, which constructs only the
// elements in use; after the vector is gone every one has been destroyed.)
void vectorsOfClasses()
{
    {
        std::vector<Tracked> t;
        for (int i = 0; i < 5; i++) t.push_back(Tracked(i * 3));
        printf("tracked size %zu cap %zu t[4] %d\n", t.size(), t.capacity(), t[4].v);
        t.resize(7);
        printf("resized %zu t[6] %d\n", t.size(), t[6].v);
        std::vector<Tracked> c = t;
        c[0].v = 100;
        printf("copy %d %d\n", t[0].v, c[0].v);
        int s = 0;
        for (const Tracked &x : c) s += x.v;
        printf("sum %d\n", s);
    }
    printf("live after %d\n", Tracked::live);

    std::vector<std::vector<int>> grid;
    for (int r = 0; r < 3; r++) {
        std::vector<int> row;
        for (int c = 0; c <= r; c++) row.push_back(r * 10 + c);
        grid.push_back(row);
    }
    grid[0].push_back(99);
    for (size_t r = 0; r < grid.size(); r++) {
        for (int x : grid[r]) printf("%d ", x);
        printf("| ");
    }
    printf("\n");
    std::vector<std::vector<int>> g2 = grid;
    g2[1][0] = -5;
    printf("deep %d %d\n", grid[1][0], g2[1][0]);
    std::vector<std::vector<float>> m(2, std::vector<float>(3, 0.5f));
    m[1][2] = 4.0f;
    printf("m %zu %zu %.1f %.1f\n", m.size(), m[1].size(), m[0][0], m[1][2]);
    m.resize(4);
    printf("m resized %zu %zu\n", m.size(), m[3].size());

    std::vector<std::pair<int, float>> ps;
    for (int i = 0; i < 4; i++) ps.push_back(std::make_pair(i, i * 0.5f));
    ps.push_back(std::pair<int, float>(9, 9.5f));
    float tot = 0;
    for (auto &p : ps) tot += p.first + p.second;
    printf("pairs %zu %d %.1f tot %.1f\n", ps.size(), ps[4].first, ps[4].second, tot);
    ps.resize(6);
    printf("pair default %d %.1f\n", ps[5].first, ps[5].second);
    std::vector<std::pair<int, float>> ps2 = ps;
    ps2[0].first = 42;
    printf("pair copy %d %d\n", ps[0].first, ps2[0].first);
}

float sumByRef(const std::vector<float> &v)
{
    float s = 0;
    for (size_t i = 0; i < v.size(); i++) s += v[i];
    return s;
}

int sumByValue(std::vector<int> v)
{
    v[0] = 1000;
    int s = 0;
    for (std::vector<int>::iterator it = v.begin(); it != v.end(); ++it) s += *it;
    return s;
}

template <typename T>
T total(const std::vector<T> &v)
{
    T s = 0;
    for (typename std::vector<T>::const_iterator it = v.begin(); it != v.end(); ++it) s += *it;
    return s;
}

std::vector<int> squares(int n)
{
    std::vector<int> out;
    for (int i = 0; i < n; i++) out.push_back(i * i);
    return out;
}

__global__ void scale(float *a, int n, float k)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) a[i] *= k;
}

int main()
{
    std::vector<int> v;
    printf("empty %d size %zu cap %zu\n", v.empty(), v.size(), v.capacity());
    for (int i = 0; i < 9; i++) {
        v.push_back(i);
        printf("%zu/%zu ", v.size(), v.capacity());
    }
    printf("\n");
    v.pop_back();
    printf("front %d back %d size %zu at(3) %d\n", v.front(), v.back(), v.size(), v.at(3));
    v.resize(20, 7);
    printf("resize 20: size %zu cap %zu v[19] %d\n", v.size(), v.capacity(), v[19]);
    v.resize(3);
    printf("resize 3: size %zu cap %zu\n", v.size(), v.capacity());
    v.clear();
    printf("clear: size %zu cap %zu empty %d\n", v.size(), v.capacity(), v.empty());
    v.reserve(100);
    printf("reserve: cap %zu\n", v.capacity());

    std::vector<int> sq = squares(5);
    printf("by value %d (sq[0] still %d) total %d\n", sumByValue(sq), sq[0], total(sq));
    std::vector<int> copy = sq;
    copy[1] = -1;
    std::vector<int> assigned;
    assigned = sq;
    assigned[2] = -2;
    printf("deep copies %d %d %d %d\n", sq[1], sq[2], copy[1], assigned[2]);

    int n = 8;
    std::vector<float> h(n, 1.5f);
    for (int i = 0; i < n; i++) h[i] += i;
    float *d;
    cudaMalloc(&d, n * sizeof(float));
    cudaMemcpy(d, h.data(), n * sizeof(float), cudaMemcpyHostToDevice);
    scale<<<1, 32>>>(d, n, 2.0f);
    std::vector<float> back(n);
    cudaMemcpy(back.data(), d, n * sizeof(float), cudaMemcpyDeviceToHost);
    cudaFree(d);
    for (float x : back) printf("%.1f ", x);
    printf("sum %.1f\n", sumByRef(back));
    for (float &x : back) x = 0;
    printf("zeroed %.1f\n", sumByRef(back));

    std::vector<Point> pts;
    for (int i = 0; i < 3; i++) {
        Point p = {(float)i, (float)(2 * i)};
        pts.push_back(p);
    }
    pts.emplace_back();
    for (const Point &p : pts) printf("(%.0f,%.0f) ", p.x, p.y);
    printf("\n");

    std::vector<int>::const_iterator ci = sq.begin();
    printf("const_iterator %d %d\n", *ci, *(ci + 4));

    std::pair<int, float> a(1, 2.5f);
    std::pair<int, float> b = std::make_pair(1, 3.5f);
    std::pair<int, float> c;
    std::pair<int, float> d2 = {4, 0.5f};
    printf("pairs %d %.1f %d %.1f %d %.1f %d %.1f\n", a.first, a.second, b.first, b.second, c.first, c.second,
           d2.first, d2.second);
    printf("compare %d %d %d %d %d %d\n", a == b, a != b, a < b, b < a, a <= a, d2 > a);
    auto p = std::make_pair(2.0, 'x');
    printf("%.1f %c\n", p.first, p.second);

    std::vector<int> listed = {1, 2, 3};
    std::vector<float> braced{4, 5.5f};
    printf("lists %zu %zu %d %.1f\n", listed.size(), listed.capacity(), listed[2], braced[1]);
    listed.push_back(4);
    printf("after push %zu %zu\n", listed.size(), listed.capacity());
    vectorsOfClasses();
    return 0;
}
