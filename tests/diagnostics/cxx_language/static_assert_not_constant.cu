int main(int argc, char **argv) {
  static_assert(argc > 0, "args");
  return 0;
}
// EXPECT: 2:17: error: static assertion expression is not an integral constant expression
