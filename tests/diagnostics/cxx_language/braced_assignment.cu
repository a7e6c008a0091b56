struct P { float x, y; };
struct C { int v; C(int a) : v(a) {} };
int main() {
  int x;
  x = {1, 2};
  int a[2];
  a = {1, 2};
  x = {{1}};
  P p;
  p = {1, 2, 3};
  C c(1);
  c = {1, 2};
  x += {2};
  return 0;
}
// EXPECT: 5:11: error: excess elements in scalar initializer
// EXPECT: 7:5: error: array type 'int[2]' is not assignable
// EXPECT: 8:8: error: too many braces around scalar initializer
// EXPECT: 10:14: error: excess elements in struct initializer
// EXPECT: 12:7: error: no matching constructor for initialization of 'C'
// EXPECT: 13:8: error: initializer list cannot be used on the right hand side of operator '+='
