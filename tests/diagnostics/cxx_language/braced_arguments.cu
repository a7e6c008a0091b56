#include <cstdio>
struct Vec2 { float x, y; };
struct Vec3 { float x, y, z; };
struct Cell { int id; Cell(int a, int b) : id(a + b) {} };
template <typename T> T twice(T v) { return v; }
void scale(Vec2 &v) { v.x *= 2; }
float norm(Vec2 v) { return v.x; }
float norm(Vec3 v) { return v.z; }
void take(Cell c) { }
__global__ void k(Vec2 v) { }
void a() { twice({1, 2}); }
void b() { scale({1, 2}); }
void c() { norm({1, 2}); }
void d() { take({1, 2, 3}); }
void e() { printf("%d\n", {1}); }
void f() { k<<<1, 1>>>({1, 2}); }
void g() { norm({1, 2, 3, 4}); }
int main() { return 0; }
// EXPECT: 11:18: error: a braced initializer list as an argument of function template 'twice' is not supported
// EXPECT: 12:18: error: cannot bind a non-const lvalue reference of type 'Vec2 &' to an initializer list
// EXPECT: 13:12: error: call to 'norm' is ambiguous
// EXPECT: 14:17: error: no matching constructor for initialization of 'Cell'
// EXPECT: 15:27: error: cannot pass an initializer list through a variadic function
// EXPECT: 16:24: error: an initializer list is not supported here
// EXPECT: 17:12: error: no matching function for call to 'norm' with arguments (initializer list)
