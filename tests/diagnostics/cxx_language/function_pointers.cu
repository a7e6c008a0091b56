// Function pointers: what minicuda does not support yet, and wrong calls through one,
// each at its own construct.
#include <cstdio>
__device__ int twice(int x) { return 2 * x; }
__global__ void apply(int (*f)(int), int *out) { *out = f(3); }
// EXPECT: 5:57: error: function pointers in device code are not supported yet
int add(int a, int b) { return a + b; }
float add(float a, float b) { return a + b; }
int sub(int a, int b) { return a - b; }
int (*make(int which))(int, int);
// EXPECT: 10:7: error: a function returning a function pointer is not supported
int limit(int x) -> int;
// EXPECT: 12:1: error: function with trailing return type must specify return type 'auto'
int main()
{
    int (*p)(int, int) = &add;
    // EXPECT: 16:26: error: taking the address of an overloaded function or a function template is not supported
    int (*q)(int, int) = sub;
    int one = q(1);
    // EXPECT: 19:15: error: too few arguments to function call, expected 2, have 1
    int n = 3;
    n(4);
    // EXPECT: 22:5: error: called object type 'int' is not a function or function pointer
    return 0;
}
