#include <stdio.h>
int main() {
    int a, b;
    printf("numbers? ");
    int n = scanf("%d %d", &a, &b);
    printf("read %d: %d + %d = %d\n", n, a, b, a + b);
    fprintf(stderr, "a warning\n");
    printf("after the warning\n");
    char name[16];
    n = scanf("%15s", name);
    printf("%d [%s] %d\n", n, name, getchar());
    n = scanf("%d", &a);
    printf("at the end: %d\n", n);
    return 0;
}
