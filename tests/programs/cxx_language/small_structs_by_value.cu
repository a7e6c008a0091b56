// Structs whose size is not a multiple of 4 (1, 3 and 6 bytes) returned, passed and
// copied by value: each is copied by its exact size (byte or 16-bit pieces), so an
// array of them and the bytes beside them keep their values.  The kernel writes
// out[0] = d[1].a * 1000 + arr[3].c * 100 + s.c = 68 * 1000 + 100 * 100 + 15 = 78015.
#include <cstdio>
struct C { char c; };
struct C3 { char a, b, c; };
struct S6 { short a, b, c; };
C make(char c) { C r = {c}; return r; }
C3 make3(char a) { C3 r = {a, (char)(a + 1), (char)(a + 2)}; return r; }
S6 make6(short a) { S6 r = {a, (short)(a * 2), (short)(a * 3)}; return r; }
int take(C3 x, C y, S6 z) { return x.a + x.b + x.c + y.c + z.a + z.b + z.c; }
__global__ void k(C3 x, C y, S6 z, int *out) { out[0] = x.a * 1000 + y.c * 100 + z.c; }
int main() {
    char guard1[4] = {9, 9, 9, 9};
    C arr[4];
    char guard2[4] = {7, 7, 7, 7};
    for (int i = 0; i < 4; i++) arr[i] = make('a' + i);
    C3 t[3];
    for (int i = 0; i < 3; i++) t[i] = make3('A' + 3 * i);
    S6 s = make6(5);
    printf("%c%c%c%c %d %d\n", arr[0].c, arr[1].c, arr[2].c, arr[3].c, guard1[3] + guard2[0], guard1[0] + guard2[3]);
    printf("%c%c%c %c%c%c %c%c%c\n", t[0].a, t[0].b, t[0].c, t[1].a, t[1].b, t[1].c, t[2].a, t[2].b, t[2].c);
    printf("%d %d %d %d\n", s.a, s.b, s.c, take(t[1], arr[2], s));
    C3 d[3];
    for (int i = 0; i < 3; i++) d[i] = t[i];
    int *out, result;
    cudaMalloc(&out, sizeof(int));
    k<<<1, 1>>>(d[1], arr[3], s, out);
    cudaMemcpy(&result, out, sizeof(int), cudaMemcpyDeviceToHost);
    printf("%d %c%c%c\n", result, d[2].a, d[2].b, d[2].c);
    return 0;
}
