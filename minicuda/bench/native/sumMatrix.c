/*
 * sumMatrix.c: the native baseline of sumMatrix.cu's kernel.
 *
 * The kernel is a serial translation: blocks row by row, and in a block its
 * threads row by row, each doing the kernel's bounds check and one addition.
 *
 * Usage: sumMatrix nx ny dimx dimy mask min_seconds   (mask 1 runs the kernel)
 * It prints "bench sumMatrixOnGPU2D SECONDS REPS FIRST LAST" (mean seconds of one
 * run, the number of timed runs, the first and the last element of C).
 */
#include "timing.h"

static void sumMatrixOnGPU2D(dim3 grid, dim3 block, float *MatA, float *MatB, float *MatC, int nx, int ny)
{
    for (unsigned int by = 0; by < grid.y; by++)
        for (unsigned int bx = 0; bx < grid.x; bx++)
            for (unsigned int ty = 0; ty < block.y; ty++)
                for (unsigned int tx = 0; tx < block.x; tx++)
                {
                    unsigned int ix = tx + bx * block.x;
                    unsigned int iy = ty + by * block.y;
                    unsigned int idx = iy * nx + ix;
                    if (ix < nx && iy < ny) MatC[idx] = MatA[idx] + MatB[idx];
                }
}

typedef struct
{
    dim3 grid, block;
    float *a, *b, *c;
    int nx, ny;
} Launch;

static void prepare(void *arg)
{
    (void)arg;
}

static void run(void *arg)
{
    Launch *l = arg;
    sumMatrixOnGPU2D(l->grid, l->block, l->a, l->b, l->c, l->nx, l->ny);
}

int main(int argc, char **argv)
{
    if (argc != 7)
    {
        fprintf(stderr, "usage: %s nx ny dimx dimy mask min_seconds\n", argv[0]);
        return 2;
    }
    int nx = atoi(argv[1]);
    int ny = atoi(argv[2]);
    dim3 block = dim((unsigned int)atoi(argv[3]), (unsigned int)atoi(argv[4]));
    int mask = atoi(argv[5]);
    double min_seconds = atof(argv[6]);
    unsigned int nxy = (unsigned int)nx * (unsigned int)ny;

    Launch l = {dim((nx + block.x - 1) / block.x, (ny + block.y - 1) / block.y), block, NULL, NULL, NULL, nx, ny};
    l.a = checked_malloc((size_t)nxy * sizeof(float));
    l.b = checked_malloc((size_t)nxy * sizeof(float));
    l.c = checked_malloc((size_t)nxy * sizeof(float));
    for (unsigned int i = 0; i < nxy; i++)
    {
        l.a[i] = fill_float(i, 37, 11);
        l.b[i] = fill_float(i, 53, 7);
    }

    if (mask & 1)
    {
        int reps = 0;
        double seconds = time_runs(prepare, run, &l, min_seconds, &reps);
        printf("bench sumMatrixOnGPU2D %.9f %d %.3f %.3f\n", seconds, reps, l.c[0], l.c[nxy - 1]);
    }
    free(l.a);
    free(l.b);
    free(l.c);
    return 0;
}
