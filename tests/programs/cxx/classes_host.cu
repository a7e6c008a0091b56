// Classes in host code: members, constructors, destructors, access, statics, a base class.
#include <stdio.h>

class Counter {
public:
    Counter(int start) : n(start), step(1) { made++; printf("Counter(%d)\n", n); }
    Counter() : n(0), step(2) { made++; }
    ~Counter() { printf("~Counter %d\n", n); }
    void bump() { n += step; }
    int get() const { return n; }
    int twice() const;
    static int made;
    static int total(int a, int b) { return a + b + made; }
private:
    int n;
    int step;
};

int Counter::made = 0;
int Counter::twice() const { return 2 * this->n; }

struct Point {
    int x, y;
    Point(int x_, int y_) : x(x_), y(y_) {}
    Point() : x(0), y(0) {}
    int norm1() const { return (x < 0 ? -x : x) + (y < 0 ? -y : y); }
    void move(int dx, int dy) { x += dx; y += dy; }
};

struct Shape {
    int id;
    Shape(int i) : id(i) {}
    int ident() const { return id * 10; }
};

struct Square : public Shape {
    int side;
    Square(int i, int s) : Shape(i), side(s) {}
    int area() const { return side * side; }
};

Point mid(Point a, Point b) {
    Point m((a.x + b.x) / 2, (a.y + b.y) / 2);
    return m;
}

int loop_with_objects() {
    int sum = 0;
    for (int i = 0; i < 4; i++) {
        Counter c(100 + i);
        if (i == 1) continue;
        if (i == 3) break;
        sum += c.get();
    }
    return sum;
}

int early(int k) {
    Counter a(1);
    if (k) {
        Counter b(2);
        return k;
    }
    Counter c(3);
    return 0;
}

int main() {
    Counter c(5);
    c.bump();
    Counter d;
    d.bump();
    Counter e{7};
    printf("%d %d %d %d\n", c.get(), d.get(), c.twice(), e.get());
    printf("made %d total %d\n", Counter::made, Counter::total(1, 2));
    Point p(3, -4);
    Point q = Point(1, 2);
    Point r{5, 6};
    Point z;
    p.move(1, 1);
    Point m = mid(p, r);
    q = m;
    printf("%d %d %d %d %d %d\n", p.norm1(), q.x, q.y, r.y, z.x, mid(q, r).y);
    Square s(4, 3);
    printf("%d %d %d\n", s.ident(), s.area(), s.id);
    printf("loop %d\n", loop_with_objects());
    printf("early %d\n", early(1));
    printf("early %d\n", early(0));
    return 0;
}
