// Qualified member names: a derived class's member function calling the base class's
// version it hides (`Base::describe(who)`), `obj.Base::get()` and `p->Base::get()` from
// outside, `obj.Base::v` (a base's field), a static one (`Base::twice(4)`); a call through
// a local pointer (`p->get()`) in main; member typedefs (`typedef` and `using` in a class,
// seen inside it as `size_type` and outside as `Buf::size_type`, a namespace's class's as
// `ring::Buf::value_type`), std::string::size_type and std::string::npos; and a derived
// class with no constructor of its own constructing its base.  Host code only
// (checked with g++).
#include <cstdio>
#include <string>

struct Base {
    int v;
    Base() : v(1) {}
    int get() const { return v; }
    void describe(const char *who) { printf("Base::describe %s %d\n", who, v); }
    static int twice(int x) { return 2 * x; }
};

struct Derived : Base {
    int get() const { return Base::get() + 100; }
    void describe(const char *who)
    {
        printf("Derived::describe\n");
        Base::describe(who);
    }
};

struct Buf {
    typedef unsigned long size_type;
    using value_type = int;
    value_type data[4];
    size_type used;
    Buf() : used(0) {}
    void push(value_type x) { data[used++] = x; }
    size_type size() const { return used; }
    value_type sum() const
    {
        value_type total = 0;
        for (size_type i = 0; i < used; i++) total += data[i];
        return total;
    }
};

namespace ring {
struct Buf {
    typedef short value_type;
    value_type head;
};
}

int main()
{
    Derived d;
    d.describe("d");
    printf("%d %d %d %d\n", d.get(), d.Base::get(), d.Base::v, Base::twice(4));
    d.Base::describe("direct");
    Derived *p = &d;
    p->v = 5;
    printf("%d %d\n", p->get(), p->Base::get());

    Buf b;
    b.push(3);
    b.push(4);
    Buf::size_type n = b.size();
    Buf::value_type total = b.sum();
    ring::Buf r;
    r.head = 7;
    ring::Buf::value_type h = r.head;
    printf("%lu %d %d %d %d\n", n, total, (int)sizeof(Buf::size_type), (int)sizeof(ring::Buf::value_type), h);

    std::string s = "kernel";
    std::string::size_type pos = s.find('n');
    std::string::size_type none = s.find('z');
    printf("%d %d %d\n", (int)pos, none == std::string::npos, (int)sizeof(pos));
    return 0;
}
