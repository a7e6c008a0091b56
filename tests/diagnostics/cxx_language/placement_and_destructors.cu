#include <new>
struct A { int x; ~A() {} };
struct B { int y; };
void f(void *p, A *a, int n) { new (p, n) A; }
void g(A *a) { a->~B(); }
void h(int *p) { p->~int(); }
void k(A *a) { new (a) A[2]; }
void m(A a) { a.~A(1); }
void q(int n) { new (n) A; }
// EXPECT: 4:40: error: placement 'new' with other than one pointer argument is not supported
// EXPECT: 5:16: error: destructor type 'B' in object destruction expression does not match the type 'A' of the object being destroyed
// EXPECT: 6:18: error: expected a class name after '~' to name a destructor
// EXPECT: 7:16: error: placement array 'new' is not supported
// EXPECT: 8:20: error: too many arguments to function call, expected 0
// EXPECT: 9:22: error: no matching 'operator new' function for placement argument of type 'int'
