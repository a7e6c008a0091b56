struct S { int &r; };
int main() {
  auto x;
  int i = 0;
  delete i;
  using namespace nowhere;
  return 0;
}
// EXPECT: 1:17: error: a member of reference type ('r') is not supported
// EXPECT: 3:8: error: declaration of variable 'x' with deduced type 'auto' requires an initializer
// EXPECT: 5:10: error: cannot delete expression of type 'int'
// EXPECT: 6:19: error: expected namespace name
