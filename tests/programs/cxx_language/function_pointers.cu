// Function pointers in host code, as C and C++ teaching code uses them: a typedef'd
// comparator for qsort and bsearch, a `using` alias, a table of operations chosen at
// run time, callbacks passed as parameters, `f` and `&f`, `p(x)` and `(*p)(x)`, and a
// pointer compared with nullptr.  The kernel scales on the device what the host sorted:
// each of the 8 threads writes 2 * sorted[i] (worked out by hand: 2 4 6 10 14 18 22 26).
#include <cstdio>
#include <cstdlib>

typedef int (*compare_fn)(const void *, const void *);
using reducer = float (*)(float, float);

static int ascending(const void *a, const void *b)
{
    int x = *(const int *)a, y = *(const int *)b;
    return (x > y) - (x < y);
}

static int descending(const void *a, const void *b) { return ascending(b, a); }

struct Record { int key; float weight; };

static int byKey(const void *a, const void *b)
{
    const Record *x = (const Record *)a, *y = (const Record *)b;
    return x->key - y->key;
}

float sum(float a, float b) { return a + b; }
float largest(float a, float b) { return a > b ? a : b; }
float product(float a, float b) { return a * b; }

float fold(const float *v, int n, float start, reducer op)
{
    float acc = start;
    for (int i = 0; i < n; i++) acc = op(acc, v[i]);
    return acc;
}

int applyTwice(int (*f)(int), int x) { return (*f)((*f)(x)); }
int addThree(int x) { return x + 3; }
int square(int x) { return x * x; }

__global__ void scale(const int *in, int *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = 2 * in[i];
}

int main()
{
    int values[8] = {9, 1, 13, 5, 11, 2, 7, 3};
    compare_fn order = ascending;
    qsort(values, 8, sizeof(int), order);
    printf("ascending:");
    for (int v : values) printf(" %d", v);
    printf("\n");

    int key = 11;
    int *found = (int *)bsearch(&key, values, 8, sizeof(int), ascending);
    printf("bsearch 11: index %d\n", found ? (int)(found - values) : -1);
    key = 4;
    printf("bsearch 4: %s\n", bsearch(&key, values, 8, sizeof(int), ascending) == nullptr ? "not found" : "found");

    int *dIn, *dOut;
    cudaMalloc(&dIn, sizeof(values));
    cudaMalloc(&dOut, sizeof(values));
    cudaMemcpy(dIn, values, sizeof(values), cudaMemcpyHostToDevice);
    scale<<<1, 8>>>(dIn, dOut, 8);
    int doubled[8];
    cudaMemcpy(doubled, dOut, sizeof(doubled), cudaMemcpyDeviceToHost);
    printf("doubled on the device:");
    for (int v : doubled) printf(" %d", v);
    printf("\n");
    cudaFree(dIn);
    cudaFree(dOut);

    qsort(values, 8, sizeof(int), &descending);
    printf("descending: %d .. %d\n", values[0], values[7]);

    Record records[4] = {{3, 0.5f}, {1, 2.0f}, {4, 1.5f}, {2, 3.0f}};
    qsort(records, 4, sizeof(Record), byKey);
    for (const Record &r : records) printf("record %d weight %.1f\n", r.key, r.weight);

    float data[5] = {1.5f, 4.0f, 2.5f, 0.5f, 3.0f};
    reducer ops[3] = {sum, largest, &product};
    const char *names[3] = {"sum", "largest", "product"};
    for (int i = 0; i < 3; i++)
        printf("%s = %.3f\n", names[i], fold(data, 5, i == 2 ? 1.0f : 0.0f, ops[i]));

    int (*step)(int) = addThree;
    printf("applyTwice(addThree, 1) = %d\n", applyTwice(step, 1));
    step = &square;
    printf("applyTwice(square, 3) = %d, step(5) = %d\n", applyTwice(step, 3), (*step)(5));

    reducer chosen = nullptr;
    printf("chosen is %s\n", chosen == nullptr ? "null" : "set");
    chosen = ops[1];
    if (chosen != nullptr && chosen == largest)
        printf("chosen is largest: %.1f\n", chosen(2.0f, 7.0f));
    return 0;
}
