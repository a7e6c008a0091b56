// A class object passed by value or by const reference to a parameter of another class
// type converts through its conversion operator (a user-defined conversion in overload ranking).
#include <stdio.h>
struct A { int x; };
struct B { int y; operator A() const { A a; a.x = y + 1; return a; } };
void f(A a) { printf("f %d\n", a.x); }
void g(const A &a) { printf("g %d\n", a.x); }
void h(int v) { printf("h %d\n", v); }
void h(A a) { printf("hA %d\n", a.x); }
int main() { B b; b.y = 2; A a = b; f(b); g(b); h(b); h(3); printf("%d\n", a.x); }
