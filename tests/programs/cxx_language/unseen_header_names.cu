// A program whose own templates and members are named like the standard headers'
// internals (get, size, begin, data, value, first, swap, abs, find): the headers'
// <iostream>, <vector>, <string>, <utility> and <algorithm> still compile, member calls
// (v.size(), s.find(...)) reach the library's members, and overloads beside <cstdlib>'s
// abs(int) choose the program's two-argument template.  Host code only (output from g++).
#include <iostream>
#include <vector>
#include <string>
#include <utility>
#include <algorithm>
#include <cstdlib>

template <typename T> T get(const std::vector<T> &v, int i) { return v[i]; }
template <typename T> int size(T n) { return (int)n * 10; }
template <typename T> T begin(T a, T b) { return a < b ? a : b; }
template <typename T> T value(T x) { return x + 1; }
template <typename T> T abs(T a, T b) { return a > b ? a - b : b - a; }
template <typename T> T first(T a, T b) { return a; }
template <typename T> void swap(T &a, T &b, T &c) { T t = a; a = b; b = c; c = t; }

struct Buffer {
    int n;
    float *data;
    int size() const { return n; }
    float *begin() const { return data; }
};

int main() {
    std::vector<int> v;
    for (int i = 5; i > 0; --i) v.push_back(i * 3);
    std::sort(v.begin(), v.end());
    std::string s = "minicuda";
    std::pair<int, std::string> p(7, "seven");
    float store[3] = {1.5f, 2.5f, 3.5f};
    Buffer b;
    b.n = 3;
    b.data = store;
    int x = 1, y = 2, z = 3;
    swap(x, y, z);
    std::cout << "get " << get(v, 2) << ", size " << size(v.size()) << "/" << v.size() << std::endl;
    std::cout << "begin " << begin(4, 9) << ", *v.begin() " << *v.begin() << std::endl;
    std::cout << "value " << value(41) << ", first " << first(8, 9) << ", p.first " << p.first << std::endl;
    std::cout << "abs " << abs(3, 10) << " " << abs(-6) << std::endl;
    std::cout << "find " << s.find("cuda") << ", substr " << s.substr(4) << std::endl;
    std::cout << "buffer " << b.size() << " " << *b.begin() << " " << b.data[2] << std::endl;
    std::cout << "swap " << x << y << z << ", std::swap ";
    std::swap(x, z);
    std::cout << x << y << z << ", max " << std::max(x, y) << std::endl;
    return 0;
}
