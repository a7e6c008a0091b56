struct NoDefault { int v; NoDefault(int x) : v(x) {} };
struct Counter { int id; Counter() : id(0) {} ~Counter() {} };
int main() {
  NoDefault *a = new NoDefault[3];
  Counter *b = new Counter[2](5);
  delete[] b;
  int *c = new int[3]{1, 2, 3};
  NoDefault *d = new NoDefault{1, 2};
  struct P { float x, y; } *e = new P{1, 2};
  int *f = new int{1, 2};
  return 0;
}
// EXPECT: 4:18: error: no matching constructor for initialization of 'NoDefault'
// EXPECT: 5:16: error: array 'new' cannot have initialization arguments
// EXPECT: 7:23: error: array 'new' with a non-empty initializer list is not supported
// EXPECT: 8:18: error: no matching constructor for initialization of 'NoDefault'
// EXPECT: 9:33: error: 'new' of aggregate type 'P' with an initializer list is not supported
// EXPECT: 10:23: error: excess elements in scalar initializer
