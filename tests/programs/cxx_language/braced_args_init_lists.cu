#include <cstdio>
#include <vector>
#include <string>
#include <iostream>
struct Point { int x, y; };
struct Named { std::string name; int v; Named(const std::string &n, int k) : name(n), v(k) {} };
int main() {
    std::vector<std::string> w = {"a", "bb"};
    std::vector<Point> pts = {{1, 2}, {3, 4}};
    std::vector<int> v{1, 2, 3};
    std::vector<Named> ns = {{"x", 1}, Named("y", 2)};
    for (auto &s : w) std::cout << s << " " << s.size() << std::endl;
    for (auto &p : pts) printf("%d %d\n", p.x, p.y);
    for (int i : v) printf("%d ", i);
    printf("\n");
    for (auto &n : ns) std::cout << n.name << n.v << std::endl;
    for (auto &s : std::vector<std::string>{"x", "y"}) std::cout << s;
    std::cout << std::endl;
    std::vector<std::vector<int>> g = {{1, 2}, {3}};
    printf("%zu %zu %d %d\n", g.size(), g[0].size(), g[0][1], g[1][0]);
    return 0;
}
