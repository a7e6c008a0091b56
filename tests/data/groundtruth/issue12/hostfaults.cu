// Host faults: argv[1] picks the case; run natively, the shell reports the signal.
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <assert.h>
int main(int argc, char **argv) {
    int c = argc > 1 ? atoi(argv[1]) : 0;
    int z = argc - 2;  // 0 when one argument is given
    printf("case %d\n", c); fflush(stdout);
    if (c == 0) { int *p = 0; *p = 5; }
    if (c == 1) { int *d; cudaMalloc(&d, 16); printf("%d\n", d[0]); }
    if (c == 2) { printf("%d\n", 100 / z); }
    if (c == 3) { int m = -2147483647 - 1; int w = z - 1; printf("%d\n", m / w); }
    if (c == 4) { assert(z == 1); }
    if (c == 5) { char *s = (char *)"hello"; s[0] = 'j'; printf("%s\n", s); }
    if (c == 6) { int *p = (int *)0x1234; printf("%d\n", *p); }
    if (c == 7) { int *p = (int *)malloc(1 << 20); free(p); p[0] = 1; printf("freed big ok\n"); }
    if (c == 8) { int *p = (int *)malloc(16); free(p); p[0] = 1; printf("freed small ok\n"); }
    if (c == 9) { int *d; cudaMalloc(&d, 16); d[0] = 3; printf("wrote\n"); }
    printf("end\n");
    return 0;
}
