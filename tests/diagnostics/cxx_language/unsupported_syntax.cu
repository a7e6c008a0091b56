// (namespace aliases: tests/diagnostics/cxx_language/namespace_alias.cu)
template <typename T> using Vec = T;
int main() {
  int a[2][2] = {};
  for (auto [x, y] : a) {}
  return 0;
}
int *f(int *a) { return new (int); }
// EXPECT: 2:23: error: alias templates are not supported
// EXPECT: 5:13: error: structured bindings are not supported
// EXPECT: 8:33: error: new of a parenthesised type is not supported
