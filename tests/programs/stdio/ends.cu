#include <stdio.h>
#include <stdlib.h>
int main(int argc, char **argv) {
    FILE *f = fopen("kept.txt", "w");
    fprintf(f, "written before the end\n");
    if (argv[1][0] == 'e') exit(3);
    if (argv[1][0] == 'a') abort();
    return 0;
}
