// Placement new and explicit destructor calls: objects built in raw bytes from
// ::operator new, ended by p->~T() / obj.~T() (a pseudo-destructor for a typedef of a
// scalar), the bytes given back by ::operator delete; new P(p) copies a plain struct.
#include <cstdio>
#include <new>

struct Account {
    int id;
    double balance;
    Account(int i, double b) : id(i), balance(b) { printf("open %d\n", id); }
    ~Account() { printf("close %d (%.2f)\n", id, balance); }
};

struct Point {
    float x, y;
};

template <typename T>
void destroy_all(T *first, int n)
{
    for (int i = 0; i < n; i++) (first + i)->~T();
}

int main()
{
    void *raw = ::operator new(3 * sizeof(Account));
    Account *accounts = static_cast<Account *>(raw);
    for (int i = 0; i < 3; i++) new (accounts + i) Account(100 + i, 10.0 * i);
    accounts[1].balance += 5.5;
    Account *again = new (&accounts[2]) Account(200, 1.25);   // the old one is not destroyed first
    printf("same place: %d\n", again == accounts + 2);
    accounts[0].~Account();
    destroy_all(accounts + 1, 2);
    ::operator delete(raw);

    typedef int Count;
    Count *counts = static_cast<Count *>(::operator new(4 * sizeof(Count)));
    for (int i = 0; i < 4; i++) new (counts + i) Count(i * i);
    printf("counts %d %d %d %d\n", counts[0], counts[1], counts[2], counts[3]);
    destroy_all(counts, 4);
    counts[3].~Count();
    ::operator delete(counts);

    Point p = {1.5f, -2.0f};
    Point *q = new Point(p);
    Point *r = new (q) Point();
    printf("point %.1f %.1f\n", p.x, p.y);
    printf("reset %.1f %.1f\n", r->x, r->y);
    delete q;
    return 0;
}
