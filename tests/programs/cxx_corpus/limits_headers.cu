// The C headers real host code pulls in: <cassert>, <cfloat>, <climits>, <cstdint>,
// <cmath>, <cstring>, <cstdlib> (qsort), with asserts that hold.
#include <cassert>
#include <cfloat>
#include <climits>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>

__global__ void minMaxKernel(const int32_t *in, int n, int32_t *mn, int32_t *mx)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        atomicMin(mn, in[i]);
        atomicMax(mx, in[i]);
    }
}

static int cmpInt(const void *a, const void *b)
{
    int x = *(const int *)a, y = *(const int *)b;
    return (x > y) - (x < y);
}

int main()
{
    const int n = 1000;
    int32_t h[n];
    for (int i = 0; i < n; i++) h[i] = (int32_t)((i * 2654435761u) % 200001u) - 100000;
    int32_t init[2] = {INT_MAX, INT_MIN};
    int32_t *d, *dMin, *dMax;
    cudaMalloc(&d, sizeof(h));
    cudaMalloc(&dMin, sizeof(int32_t));
    cudaMalloc(&dMax, sizeof(int32_t));
    cudaMemcpy(d, h, sizeof(h), cudaMemcpyHostToDevice);
    cudaMemcpy(dMin, &init[0], sizeof(int32_t), cudaMemcpyHostToDevice);
    cudaMemcpy(dMax, &init[1], sizeof(int32_t), cudaMemcpyHostToDevice);
    minMaxKernel<<<(n + 255) / 256, 256>>>(d, n, dMin, dMax);
    int32_t mn, mx;
    cudaMemcpy(&mn, dMin, sizeof(mn), cudaMemcpyDeviceToHost);
    cudaMemcpy(&mx, dMax, sizeof(mx), cudaMemcpyDeviceToHost);

    qsort(h, n, sizeof(int32_t), cmpInt);
    assert(h[0] == mn && "minimum agrees");
    assert(h[n - 1] == mx);
    printf("min %d max %d (qsort agrees)\n", mn, mx);
    printf("INT_MAX %d INT_MIN %d UINT_MAX %u CHAR_BIT %d\n", INT_MAX, INT_MIN, UINT_MAX, CHAR_BIT);
    printf("FLT_MAX %g FLT_EPSILON %g DBL_EPSILON %g FLT_DIG %d\n", FLT_MAX, FLT_EPSILON, DBL_EPSILON, FLT_DIG);
    printf("INT64_MAX %lld UINT8_MAX %d SIZE_MAX is %s\n", (long long)INT64_MAX, UINT8_MAX,
           SIZE_MAX == (size_t)-1 ? "all ones" : "other");
    printf("sqrt(2) %.6f floor(-2.5) %.1f fabs(-3) %.1f pow(2,10) %.0f\n", sqrt(2.0), floor(-2.5), fabs(-3.0),
           pow(2.0, 10.0));
    char buf[32];
    strcpy(buf, "minmax");
    strcat(buf, "-done");
    printf("%s has %d characters, strcmp %d\n", buf, (int)strlen(buf), strcmp(buf, "minmax-done") == 0);
    cudaFree(d);
    cudaFree(dMin);
    cudaFree(dMax);
    return 0;
}
