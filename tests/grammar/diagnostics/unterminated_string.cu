#include <stdio.h>

int main()
{
    printf("hello\n);
    return 0;
}

// EXPECT: 5:12: error: missing terminating " character
