// A library in the style of a course's helper namespace: the class is declared in a
// header part, its members defined later in a reopened namespace (out of class), a
// static const member defined there and read in a member function, an explicit
// constructor declared in the class and defined outside it, and an aggregate
// holding a member without a default constructor.
#include <cstdio>

namespace grid {
struct Dims {
    static const unsigned long invalid;
    int nx, ny;
    int cells() const;
    unsigned long index(int x, int y) const;
};

struct Tag {
    int id;
    Tag(int i) : id(i) {}
    explicit Tag(const Dims &d);   // defined below, out of class
};
}

namespace grid {
const unsigned long Dims::invalid = (unsigned long)-1;

int Dims::cells() const { return nx * ny; }

Tag::Tag(const Dims &d) : id(d.cells()) {}

unsigned long Dims::index(int x, int y) const
{
    if (x < 0 || y < 0 || x >= nx || y >= ny) return invalid;
    return (unsigned long)y * nx + x;
}
}

struct Labelled {
    grid::Tag tag;   // no default constructor: Labelled is built as an aggregate
    float value;
};

int main()
{
    grid::Dims d = {4, 3};
    printf("cells %d\n", d.cells());
    printf("index(1,2) %lu\n", d.index(1, 2));
    printf("index(5,0) invalid %d\n", d.index(5, 0) == grid::Dims::invalid);
    Labelled l = {grid::Tag(7), 2.5f};
    printf("tag %d value %.1f\n", l.tag.id, l.value);
    grid::Tag fromDims(d);
    printf("tag from dims %d\n", fromDims.id);
    return 0;
}
