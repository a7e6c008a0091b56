// A range-based for over a braced list (an initializer_list range) is named at the list,
// not reported as a missing expression.
#include <cstdio>

int main() {
    int sum = 0;
    for (int x : {1, 2, 3}) sum += x;
    printf("%d\n", sum);
    return 0;
}
// EXPECT: 7:18: error: range-based 'for' over a braced list is not supported
