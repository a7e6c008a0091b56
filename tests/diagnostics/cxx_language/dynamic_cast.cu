int main() {
  int x = 1;
  int *p = dynamic_cast<int *>(&x);
  return *p;
}
// EXPECT: 3:12: error: 'dynamic_cast' is not supported
