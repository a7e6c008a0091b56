int g = 3;
struct Box {
    int v;
    int get() { auto f = [this]() { return v; }; return f(); }
};
int main() {
    int k = 1;
    auto a = [](auto x) { return x; };
    auto b = []() { return k; };
    auto c = [g]() { return g; };
    auto d = [k, k]() { return k; };
    return 0;
}
// EXPECT: 4:27: error: capturing 'this' in a lambda is not supported
// EXPECT: 8:17: error: generic lambdas ('auto' parameters) are not supported
// EXPECT: 9:28: error: variable 'k' cannot be implicitly captured in a lambda with no capture-default specified
// EXPECT: 10:15: error: 'g' cannot be captured because it does not have automatic storage duration
// EXPECT: 11:18: error: 'k' can appear only once in a capture list
