static_assert(sizeof(int) == 8, "int is 8 bytes");
int main() {
  static_assert(1 + 1 == 3);
  return 0;
}
// EXPECT: 1:15: error: static assertion failed: int is 8 bytes
// EXPECT: 3:17: error: static assertion failed
