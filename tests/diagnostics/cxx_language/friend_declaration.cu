#include <iostream>
struct Vec2 {
    float x, y;
    friend std::ostream &operator<<(std::ostream &os, const Vec2 &v) { return os << v.x << ',' << v.y; }
};
// EXPECT: 4:5: error: friend declarations are not supported
