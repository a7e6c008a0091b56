#include <stdio.h>
int main()
{
    int n = 16;
    float *d_a;
    cudaMalloc((void **)&d_a, n * sizeof(float));
    cudaMemset(d_a, 0, n * sizeof(float));
    for (int i = 0; i < n; i++)
        d_a[i] = i;
    printf("done\n");
    return 0;
}
