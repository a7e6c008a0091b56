struct NoDefault { int v; NoDefault(int x) : v(x) {} };
struct Counter { int id; Counter() : id(0) {} ~Counter() {} };
int main() {
  NoDefault *a = new NoDefault[3];
  Counter *b = new Counter[2](5);
  delete[] b;
  return 0;
}
// EXPECT: 4:18: error: no matching constructor for initialization of 'NoDefault'
// EXPECT: 5:16: error: array 'new' cannot have initialization arguments
