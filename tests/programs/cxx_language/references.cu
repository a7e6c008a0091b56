// References as parameters, locals and returns: swap, references to array
// elements, struct members and pointers, a const reference bound to a temporary.
#include <cstdio>

struct Point { int x, y; };

void swap_ints(int &a, int &b) { int t = a; a = b; b = t; }
int &element(int *a, int i) { return a[i]; }
const int &larger(const int &a, const int &b) { return a > b ? a : b; }
void advance(int *&p) { p++; }
void scale(Point &p, int k) { p.x *= k; p.y *= k; }
double twice(const double &d) { return d * 2; }

int main() {
    int x = 1, y = 2;
    swap_ints(x, y);
    printf("swap: %d %d\n", x, y);
    int a[4] = {10, 20, 30, 40};
    element(a, 2) = 99;
    element(a, 0) += 5;
    int &last = a[3];
    last++;
    printf("array: %d %d %d %d\n", a[0], a[1], a[2], a[3]);
    Point p = {3, 4};
    int &px = p.x;
    px = 7;
    scale(p, 10);
    printf("point: %d %d\n", p.x, p.y);
    int *q = a;
    advance(q);
    printf("pointer: %d\n", *q);
    const int &t = x + y + 100;
    printf("temporary: %d\n", t);
    printf("larger: %d\n", larger(x, y));
    printf("twice: %.1f %.1f\n", twice(1.25), twice(x));
    int &rx = x;
    int *px2 = &rx;
    *px2 = 42;
    printf("through: %d %d sizeof %d\n", x, rx, (int)sizeof(rx));
    return 0;
}
