void inc(int &r) { r++; }
int main() {
  int &dangling;
  inc(3);
  float f = 1.0f;
  int &wrong = f;
  const int c = 1;
  int &drops = c;
  return 0;
}
// EXPECT: 3:8: error: declaration of reference variable 'dangling' requires an initializer
// EXPECT: 4:7: error: non-const lvalue reference to type 'int' cannot bind to a temporary of type 'int'
// EXPECT: 6:16: error: non-const lvalue reference to type 'int' cannot bind to a value of unrelated type 'float'
// EXPECT: 8:16: error: binding reference of type 'int' to value of type 'const int' drops 'const' qualifier
