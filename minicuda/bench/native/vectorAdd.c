/*
 * vectorAdd.c: the native baseline of vectorAdd.cu's kernel.
 *
 * The kernel is a serial translation: blocks of 256 threads one after another,
 * each thread doing the kernel's bounds check and one addition.
 *
 * Usage: vectorAdd numElements mask min_seconds   (mask 1 runs the kernel)
 * It prints "bench vectorAdd SECONDS REPS FIRST LAST" (mean seconds of one run,
 * the number of timed runs, the first and the last element of C).
 */
#include "timing.h"

static void vectorAdd(dim3 grid, dim3 block, const float *A, const float *B, float *C, int numElements)
{
    for (unsigned int bx = 0; bx < grid.x; bx++)
        for (unsigned int tx = 0; tx < block.x; tx++)
        {
            int i = block.x * bx + tx;
            if (i < numElements) C[i] = A[i] + B[i];
        }
}

typedef struct
{
    dim3 grid, block;
    float *a, *b, *c;
    int n;
} Launch;

static void prepare(void *arg)
{
    (void)arg;
}

static void run(void *arg)
{
    Launch *l = arg;
    vectorAdd(l->grid, l->block, l->a, l->b, l->c, l->n);
}

int main(int argc, char **argv)
{
    if (argc != 4)
    {
        fprintf(stderr, "usage: %s numElements mask min_seconds\n", argv[0]);
        return 2;
    }
    int n = atoi(argv[1]);
    int mask = atoi(argv[2]);
    double min_seconds = atof(argv[3]);
    unsigned int threadsPerBlock = 256;

    Launch l = {dim((n + threadsPerBlock - 1) / threadsPerBlock, 1), dim(threadsPerBlock, 1), NULL, NULL, NULL, n};
    l.a = checked_malloc((size_t)n * sizeof(float));
    l.b = checked_malloc((size_t)n * sizeof(float));
    l.c = checked_malloc((size_t)n * sizeof(float));
    for (int i = 0; i < n; i++)
    {
        l.a[i] = fill_float(i, 37, 11);
        l.b[i] = fill_float(i, 53, 7);
    }

    if (mask & 1)
    {
        int reps = 0;
        double seconds = time_runs(prepare, run, &l, min_seconds, &reps);
        printf("bench vectorAdd %.9f %d %.3f %.3f\n", seconds, reps, l.c[0], l.c[n - 1]);
    }
    free(l.a);
    free(l.b);
    free(l.c);
    return 0;
}
