#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <errno.h>

int main() {
    FILE *missing = fopen("missing.txt", "r");
    int code = errno;
    printf("missing: %s errno %d (%s)\n", missing == NULL ? "NULL" : "opened", code, strerror(code));
    perror("missing.txt");

    FILE *f = fopen("data.txt", "w");
    fprintf(f, "%d %.2f\n", 42, 3.5);
    fputs("hello world\n", f);
    fputc('x', f);
    putc('\n', f);
    for (int i = 0; i < 3; i++) fprintf(f, "%d ", 7 + i);
    fclose(f);

    f = fopen("data.txt", "r");
    int a; float b; char word[32], line[64];
    int n = fscanf(f, "%d %f", &a, &b);
    printf("fscanf %d: %d %.2f\n", n, a, b);
    fgets(line, sizeof line, f);
    printf("rest [%s]\n", line);
    fgets(line, sizeof line, f);
    printf("line [%s]", line);
    n = fscanf(f, "%s", word);
    printf("word %d %s at %ld\n", n, word, ftell(f));
    int x, y, z;
    n = fscanf(f, "%d %d %d", &x, &y, &z);
    printf("three %d: %d %d %d eof %d\n", n, x, y, z, feof(f));
    n = fscanf(f, "%d", &x);
    printf("at the end %d eof %d\n", n, feof(f) != 0);
    rewind(f);
    char buf[8];
    size_t got = fread(buf, 1, 7, f);
    buf[got] = 0;
    printf("fread %zu [%s] tell %ld\n", got, buf, ftell(f));
    int c = fgetc(f);
    printf("fgetc '%c' getc '%c'\n", c, getc(f));
    fseek(f, 0, SEEK_END);
    printf("size %ld\n", ftell(f));
    fclose(f);

    f = fopen("data.txt", "a");
    fprintf(f, "appended\n");
    fclose(f);
    f = fopen("data.txt", "r+");
    fseek(f, -9, SEEK_END);
    fgets(line, sizeof line, f);
    printf("tail [%s]", line);
    fseek(f, 0, SEEK_SET);
    fputs("43", f);
    fclose(f);

    double values[4] = {1.5, -2.25, 1e300, 0.0};
    FILE *out = fopen("values.bin", "wb");
    printf("fwrite %zu\n", fwrite(values, sizeof(double), 4, out));
    fclose(out);
    double back[5];
    FILE *in = fopen("values.bin", "rb");
    size_t records = fread(back, sizeof(double), 5, in);
    printf("fread %zu eof %d\n", records, feof(in) != 0);
    printf("%g %g %g %g\n", back[0], back[1], back[2], back[3]);
    fclose(in);
    int removed = remove("values.bin");
    int again = remove("values.bin");
    printf("remove %d then %d\n", removed, again);

    fprintf(stderr, "a line on stderr\n");
    fprintf(stdout, "and one on stdout\n");
    fflush(stdout);
    return 0;
}
