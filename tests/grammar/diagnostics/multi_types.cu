#include <stdlib.h>

__device__ float *first(float *a)
{
    return a[0];
}

int main()
{
    float *h = malloc(64);
    int *p = h;
    return p[0];
}

// EXPECT: 5:12: error: cannot initialize return object of type 'float *' with an lvalue of type 'float'
// EXPECT: 10:16: error: cannot initialize a variable of type 'float *' with an rvalue of type 'void *'
// EXPECT: 11:14: error: cannot initialize a variable of type 'int *' with an lvalue of type 'float *'
