#include <cstdio>
#include <vector>
#include <string>
#include <iostream>
struct Vec2 { float x, y; };
struct Particle {
    int id; Vec2 pos, vel;
    Particle(int i, Vec2 p, Vec2 v) : id(i), pos(p), vel(v) {}
};
struct Item { int n; std::string s; Item(int a, const std::string &b) : n(a), s(b) {} };
float len2(int k, Vec2 v) { return k * (v.x * v.x + v.y * v.y); }
float dot(const Vec2 &a, const Vec2 &b) { return a.x * b.x + a.y * b.y; }
int pick(int a) { return a; }
int pick(Vec2 v) { return (int)(v.x + v.y) + 100; }
int main() {
    float x = 1, y = 2;
    printf("%.2f\n", len2(2, {x, y}));
    printf("%.2f\n", dot({1, 2}, {3, 4}));
    printf("%d %d %d\n", pick({5}), pick({1, 2}), pick({}));
    Particle p(7, {x, y}, {0.5f, 0.25f});
    printf("%d %.2f %.2f %.2f %.2f\n", p.id, p.pos.x, p.pos.y, p.vel.x, p.vel.y);
    Particle *q = new Particle(8, {3, 4}, {});
    printf("%d %.2f %.2f\n", q->id, q->pos.y, q->vel.x);
    delete q;
    std::vector<Vec2> pts;
    pts.push_back({1, 2});
    pts.push_back({});
    std::vector<Item> items;
    items.push_back({1, "one"});
    items.emplace_back(2, "two");
    for (auto &it : items) std::cout << it.n << " " << it.s << std::endl;
    printf("%zu %.2f %.2f\n", pts.size(), pts[0].y, pts[1].x);
    Particle r = Particle(9, {1, 1}, {2, 2});
    printf("%d %.2f\n", r.id, r.vel.y);
    return 0;
}
