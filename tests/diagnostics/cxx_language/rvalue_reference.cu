int take(int &&r) { return r; }
int main() { return take(1); }
// EXPECT: 1:14: error: rvalue references ('&&') are not supported
