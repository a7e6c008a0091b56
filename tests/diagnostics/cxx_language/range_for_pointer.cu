int main() {
  int a[3] = {1, 2, 3};
  int *p = a;
  int s = 0;
  for (int v : p) s += v;
  return s;
}
// EXPECT: 5:16: error: range-based 'for' over a value of type 'int *' is not supported (only arrays of known size and classes with begin() and end())
