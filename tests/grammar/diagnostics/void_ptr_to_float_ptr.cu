#include <stdlib.h>

int main()
{
    float *h = malloc(16 * sizeof(float));
    h[0] = 1.0f;
    free(h);
    return 0;
}

// EXPECT: 5:16: error: cannot initialize a variable of type 'float *' with an rvalue of type 'void *'
