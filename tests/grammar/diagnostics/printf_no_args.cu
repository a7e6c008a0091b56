#include <stdio.h>

int main()
{
    printf();
    return 0;
}

// EXPECT: 5:5: error: too few arguments to function call, expected at least 1, have 0
