struct P { float x, y; };
struct Q { P p; int n; Q() : p{1, 2, 3}, n(1) { n = 2; } };
P make() { return {1, 2, 3}; }
void nothing() { return {1}; }
int one() { return {1, 2}; }
int main() {
  Q q;
  return q.n;
}
// EXPECT: 2:38: error: excess elements in struct initializer
// EXPECT: 3:26: error: excess elements in struct initializer
// EXPECT: 4:18: error: void function 'nothing' should not return a value
// EXPECT: 5:24: error: excess elements in scalar initializer
