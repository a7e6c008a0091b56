// Namespaces (nested, reopened, anonymous), qualified names, using-directives and
// using-declarations, type aliases, enums and scoped enums, tag names as types.
#include <cstdio>

namespace geometry {
    const int dims = 2;
    struct Vec { float x, y; };
    float dot(const Vec &a, const Vec &b);
    namespace detail {
        int calls = 0;
        float mul(float a, float b) { calls++; return a * b; }
    }
}

namespace geometry {
    float dot(const Vec &a, const Vec &b) { return detail::mul(a.x, b.x) + detail::mul(a.y, b.y); }
    int twice_dims() { return 2 * dims; }
}

namespace {
    int hidden(int v) { return v + 1000; }
}

namespace counters { int total = 5; }
int total = 1;

enum Color { Red, Green = 5, Blue };
enum class Shape : unsigned char { Circle = 1, Square, Triangle = 10 };
typedef enum { Low, High } Level;
using Index = long;
using namespace geometry;

const char *name(Color c) {
    switch (c) {
    case Red: return "red";
    case Green: return "green";
    case Color::Blue: return "blue";
    }
    return "?";
}

int area(Shape s) {
    if (s == Shape::Circle) return 3;
    return s == Shape::Square ? 4 : 0;
}

struct Node { int v; Node *next; };
union Bits { float f; unsigned int u; };

int main() {
    Vec a = {1.0f, 2.0f};
    geometry::Vec b = {3.0f, 4.0f};
    float d = dot(a, b);
    printf("dot %.1f calls %d dims %d %d\n", d, geometry::detail::calls, geometry::dims, twice_dims());
    using geometry::detail::mul;
    printf("mul %.1f hidden %d\n", mul(2.0f, 3.5f), hidden(1));
    printf("totals %d %d %d\n", total, counters::total, ::total);
    {
        using namespace counters;
        printf("inner %d\n", counters::total + 1);
    }
    Color c = Blue;
    printf("colors %d %d %d %s %s\n", Red, Green, c, name(c), name(Color::Red));
    Shape s = Shape::Triangle;
    printf("shapes %d %d %d size %d\n", area(Shape::Circle), area(Shape::Square), (int)s, (int)sizeof(Shape));
    Level l = High;
    Index big = 1L << 40;
    printf("level %d index %ld\n", l, big);
    int lookup[Blue + 1];
    lookup[Green] = 9;
    printf("lookup %d\n", lookup[Green]);
    Node n2 = {2, nullptr};
    Node n1 = {1, &n2};
    Node *p = &n1;
    int sum = 0;
    while (p) { sum += p->v; p = p->next; }
    Bits bits;
    bits.f = 1.0f;
    printf("nodes %d bits %x\n", sum, bits.u);
    return 0;
}
