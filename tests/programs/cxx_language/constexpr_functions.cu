// constexpr functions called in constant expressions: array sizes, static_assert,
// case labels, other constexpr variables; and called at run time too.
#include <cstdio>

constexpr int square(int x) { return x * x; }
constexpr int factorial(int n) { return n <= 1 ? 1 : n * factorial(n - 1); }
constexpr long kCells = square(4) * 2;
static_assert(factorial(5) == 120, "5! is 120");

int classify(int v) {
    switch (v) {
    case square(2): return 1;
    case factorial(3): return 2;
    default: return 0;
    }
}

int main(int argc, char **argv) {
    int grid[square(3)];
    for (int i = 0; i < square(3); i++) grid[i] = i;
    printf("%d %ld %d\n", (int)(sizeof(grid) / sizeof(grid[0])), kCells, grid[8]);
    printf("%d %d %d\n", classify(4), classify(6), classify(5));
    printf("%d %d\n", square(argc + 2), factorial(argc + 3));
    return 0;
}
