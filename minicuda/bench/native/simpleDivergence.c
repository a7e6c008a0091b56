/*
 * simpleDivergence.c: the native baseline of simpleDivergence.cu's five kernels.
 *
 * Each kernel is a serial translation: blocks one after another, each thread
 * computing its tid and taking its branch.
 *
 * Usage: simpleDivergence blocksize size mask min_seconds
 *   bit i of mask runs kernel i: warmingup, mathKernel1, 2, 3, 4.
 * Per kernel it prints "bench KERNEL SECONDS REPS FIRST LAST" (mean seconds of
 * one run, the number of timed runs, c[0] + c[1] and c[size - 2] + c[size - 1]).
 */
#include "timing.h"

#define warpSize 32

static void mathKernel1(dim3 grid, dim3 block, float *c)
{
    for (unsigned int bx = 0; bx < grid.x; bx++)
        for (unsigned int tx = 0; tx < block.x; tx++)
        {
            int tid = bx * block.x + tx;
            float a, b;
            a = b = 0.0f;
            if (tid % 2 == 0)
                a = 100.0f;
            else
                b = 200.0f;
            c[tid] = a + b;
        }
}

static void mathKernel2(dim3 grid, dim3 block, float *c)
{
    for (unsigned int bx = 0; bx < grid.x; bx++)
        for (unsigned int tx = 0; tx < block.x; tx++)
        {
            int tid = bx * block.x + tx;
            float a, b;
            a = b = 0.0f;
            if ((tid / warpSize) % 2 == 0)
                a = 100.0f;
            else
                b = 200.0f;
            c[tid] = a + b;
        }
}

static void mathKernel3(dim3 grid, dim3 block, float *c)
{
    for (unsigned int bx = 0; bx < grid.x; bx++)
        for (unsigned int tx = 0; tx < block.x; tx++)
        {
            int tid = bx * block.x + tx;
            float ia, ib;
            ia = ib = 0.0f;
            int ipred = (tid % 2 == 0);
            if (ipred) ia = 100.0f;
            if (!ipred) ib = 200.0f;
            c[tid] = ia + ib;
        }
}

static void mathKernel4(dim3 grid, dim3 block, float *c)
{
    for (unsigned int bx = 0; bx < grid.x; bx++)
        for (unsigned int tx = 0; tx < block.x; tx++)
        {
            int tid = bx * block.x + tx;
            float ia, ib;
            ia = ib = 0.0f;
            int itid = tid >> 5;
            if (itid & (0x01 == 0))   /* the sample's precedence, spelled out: always false */
                ia = 100.0f;
            else
                ib = 200.0f;
            c[tid] = ia + ib;
        }
}

static void warmingup(dim3 grid, dim3 block, float *c)
{
    for (unsigned int bx = 0; bx < grid.x; bx++)
        for (unsigned int tx = 0; tx < block.x; tx++)
        {
            int tid = bx * block.x + tx;
            float ia, ib;
            ia = ib = 0.0f;
            if ((tid / warpSize) % 2 == 0)
                ia = 100.0f;
            else
                ib = 200.0f;
            c[tid] = ia + ib;
        }
}

static const char *KERNELS[5] = {"warmingup", "mathKernel1", "mathKernel2", "mathKernel3", "mathKernel4"};
static void (*const FUNCTIONS[5])(dim3, dim3, float *) = {warmingup, mathKernel1, mathKernel2, mathKernel3,
                                                           mathKernel4};

typedef struct
{
    int kernel;
    dim3 grid, block;
    float *c;
} Launch;

static void prepare(void *arg)
{
    (void)arg;
}

static void run(void *arg)
{
    Launch *l = arg;
    FUNCTIONS[l->kernel](l->grid, l->block, l->c);
}

int main(int argc, char **argv)
{
    if (argc != 5)
    {
        fprintf(stderr, "usage: %s blocksize size mask min_seconds\n", argv[0]);
        return 2;
    }
    unsigned int blocksize = (unsigned int)atoi(argv[1]);
    int size = atoi(argv[2]);
    int mask = atoi(argv[3]);
    double min_seconds = atof(argv[4]);

    Launch l = {0, dim((size + blocksize - 1) / blocksize, 1), dim(blocksize, 1), NULL};
    l.c = checked_malloc((size_t)l.grid.x * blocksize * sizeof(float));
    for (int k = 0; k < 5; k++)
    {
        if (!(mask & (1 << k))) continue;
        l.kernel = k;
        int reps = 0;
        double seconds = time_runs(prepare, run, &l, min_seconds, &reps);
        printf("bench %s %.9f %d %.3f %.3f\n", KERNELS[k], seconds, reps, l.c[0] + l.c[1],
               l.c[size - 2] + l.c[size - 1]);
    }
    free(l.c);
    return 0;
}
