// A class template whose members have constructors and destructors (std::vector,
// std::string) gets C++'s implicit default constructor, copy and destructor:
// Box<float> used to be "a type specifier is required for all declarations".
#include <cstdio>
#include <string>
#include <vector>
#include <iostream>
template <typename T> struct Box {
    std::vector<T> items;
    std::string label;
    T first() const { return items[0]; }
};
template <typename T> struct Grid { std::vector<T> cells; };
int main() {
    Box<float> b;
    b.items.push_back(1.5f);
    b.label = "floats";
    Box<float> c = b;
    c.items.push_back(2.5f);
    Grid<Box<float>> g;
    g.cells.push_back(c);
    std::cout << b.label << " " << b.items.size() << " " << c.items.size() << " " << c.first() << std::endl;
    std::cout << g.cells[0].label << " " << g.cells[0].items[1] << std::endl;
    return 0;
}
