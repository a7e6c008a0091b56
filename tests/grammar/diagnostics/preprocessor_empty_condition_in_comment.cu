#include <stdio.h>
/* an old note:
#if
   was never finished
*/
const char *s = "/* not a comment";
int main()
{
    // /* nor this
#if
#endif
    printf("%s\n", s);
    return 0;
}

// EXPECT: 10:4: error: #if with no expression
