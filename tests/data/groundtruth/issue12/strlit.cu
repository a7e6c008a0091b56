#include <stdio.h>
int main() { char *s = "hello"; s[0] = 'j'; printf("%s\n", s); return 0; }
