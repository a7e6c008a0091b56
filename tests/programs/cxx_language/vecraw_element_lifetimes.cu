// What std::vector does to its elements, as libstdc++ does it: which are constructed,
// copied, assigned and destroyed, in which order, and how the capacity grows.  The
// element class has no default constructor except where one is asked for (Widget).
#include <cstdio>
#include <vector>

struct Tracer {
    int v;
    Tracer(int x) : v(x) { printf("ctor %d\n", v); }
    Tracer(const Tracer &o) : v(o.v) { printf("copy %d\n", v); }
    ~Tracer() { printf("dtor %d\n", v); }
    Tracer &operator=(const Tracer &o)
    {
        printf("assign %d<-%d\n", v, o.v);
        v = o.v;
        return *this;
    }
};

struct Widget {
    int id;
    Widget() : id(1) { printf("widget\n"); }
    Widget(const Widget &o) : id(o.id) { printf("widget copy\n"); }
    ~Widget() { printf("widget gone\n"); }
};

int main()
{
    std::vector<Tracer> a;
    for (int i = 0; i < 3; i++) {
        printf("-- push %d\n", i);
        a.push_back(Tracer(i));
        printf("size %zu capacity %zu\n", a.size(), a.capacity());
    }
    printf("-- emplace\n");
    a.emplace_back(7);
    printf("size %zu capacity %zu\n", a.size(), a.capacity());
    printf("-- pop\n");
    a.pop_back();
    printf("-- resize 6\n");
    a.resize(6, Tracer(9));
    printf("size %zu capacity %zu\n", a.size(), a.capacity());
    printf("-- resize 2\n");
    a.resize(2, Tracer(8));
    printf("-- reserve 10\n");
    a.reserve(10);
    printf("-- resize 3 within capacity\n");
    a.resize(3, Tracer(5));
    printf("-- copy\n");
    std::vector<Tracer> b(a);
    printf("capacity of the copy %zu\n", b.capacity());
    printf("-- assign to a smaller capacity\n");
    std::vector<Tracer> c;
    c.push_back(Tracer(50));
    c = a;
    printf("-- assign to a longer vector\n");
    std::vector<Tracer> d(4, Tracer(60));
    d = a;
    printf("-- insert an lvalue in the middle\n");
    Tracer x(70);
    a.insert(a.begin() + 1, x);
    printf("-- erase one\n");
    a.erase(a.begin());
    printf("-- erase a range\n");
    a.erase(a.begin(), a.begin() + 2);
    printf("-- clear\n");
    b.clear();
    printf("-- widgets\n");
    std::vector<Widget> w;
    w.resize(1);
    w.resize(3);
    printf("size %zu capacity %zu\n", w.size(), w.capacity());
    printf("-- end\n");
    return 0;
}
