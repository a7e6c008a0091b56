int g;
int &rg = g;
int main() { return rg; }
// EXPECT: 2:6: error: a reference at file scope ('rg') is not supported
