/*
 * reduceInteger.c: the native baseline of reduceInteger.cu's nine kernels.
 *
 * Each kernel is a serial translation: blocks one after another; within a block,
 * each stretch between two __syncthreads() is a loop over the block's threads;
 * a thread that returned early (idx >= n) is skipped in every later stretch.  The
 * warp-unrolled tails are warp-synchronous: each statement runs for the 32 lanes
 * before the next one starts, so each is a loop of its own, through the same
 * volatile pointer.
 *
 * Usage: reduceInteger blocksize size mask min_seconds
 * Per kernel it prints "bench KERNEL SECONDS REPS FIRST LAST" (mean seconds of one
 * run, the number of timed runs, the first and the last block's partial sums).
 */
#include <string.h>

#include "timing.h"

static void reduceNeighbored(dim3 grid, dim3 block, int *g_idata, int *g_odata, unsigned int n)
{
    for (unsigned int bx = 0; bx < grid.x; bx++)
    {
        int *idata = g_idata + bx * block.x;
        for (int stride = 1; stride < block.x; stride *= 2)
        {
            for (unsigned int tid = 0; tid < block.x; tid++)
            {
                if (bx * block.x + tid >= n) continue;
                if ((tid % (2 * stride)) == 0) idata[tid] += idata[tid + stride];
            }
        }
        if (bx * block.x < n) g_odata[bx] = idata[0];
    }
}

static void reduceNeighboredLess(dim3 grid, dim3 block, int *g_idata, int *g_odata, unsigned int n)
{
    for (unsigned int bx = 0; bx < grid.x; bx++)
    {
        int *idata = g_idata + bx * block.x;
        for (int stride = 1; stride < block.x; stride *= 2)
        {
            for (unsigned int tid = 0; tid < block.x; tid++)
            {
                if (bx * block.x + tid >= n) continue;
                int index = 2 * stride * tid;
                if (index < block.x) idata[index] += idata[index + stride];
            }
        }
        if (bx * block.x < n) g_odata[bx] = idata[0];
    }
}

static void reduceInterleaved(dim3 grid, dim3 block, int *g_idata, int *g_odata, unsigned int n)
{
    for (unsigned int bx = 0; bx < grid.x; bx++)
    {
        int *idata = g_idata + bx * block.x;
        for (int stride = block.x / 2; stride > 0; stride >>= 1)
        {
            for (unsigned int tid = 0; tid < block.x; tid++)
            {
                if (bx * block.x + tid >= n) continue;
                if (tid < stride) idata[tid] += idata[tid + stride];
            }
        }
        if (bx * block.x < n) g_odata[bx] = idata[0];
    }
}

/* the interleaved stride loop of the unrolled kernels, down to (but not including) `last` */
static void interleave(dim3 block, int *idata, int last)
{
    for (int stride = block.x / 2; stride > last; stride >>= 1)
    {
        for (unsigned int tid = 0; tid < block.x; tid++)
        {
            if (tid < stride) idata[tid] += idata[tid + stride];
        }
    }
}

static void reduceUnrolling2(dim3 grid, dim3 block, int *g_idata, int *g_odata, unsigned int n)
{
    for (unsigned int bx = 0; bx < grid.x; bx++)
    {
        int *idata = g_idata + bx * block.x * 2;
        for (unsigned int tid = 0; tid < block.x; tid++)
        {
            unsigned int idx = bx * block.x * 2 + tid;
            if (idx + block.x < n) g_idata[idx] += g_idata[idx + block.x];
        }
        interleave(block, idata, 0);
        g_odata[bx] = idata[0];
    }
}

static void reduceUnrolling4(dim3 grid, dim3 block, int *g_idata, int *g_odata, unsigned int n)
{
    for (unsigned int bx = 0; bx < grid.x; bx++)
    {
        int *idata = g_idata + bx * block.x * 4;
        for (unsigned int tid = 0; tid < block.x; tid++)
        {
            unsigned int idx = bx * block.x * 4 + tid;
            if (idx + 3 * block.x < n)
            {
                int a1 = g_idata[idx];
                int a2 = g_idata[idx + block.x];
                int a3 = g_idata[idx + 2 * block.x];
                int a4 = g_idata[idx + 3 * block.x];
                g_idata[idx] = a1 + a2 + a3 + a4;
            }
        }
        interleave(block, idata, 0);
        g_odata[bx] = idata[0];
    }
}

static void reduceUnrolling8(dim3 grid, dim3 block, int *g_idata, int *g_odata, unsigned int n)
{
    for (unsigned int bx = 0; bx < grid.x; bx++)
    {
        int *idata = g_idata + bx * block.x * 8;
        for (unsigned int tid = 0; tid < block.x; tid++)
        {
            unsigned int idx = bx * block.x * 8 + tid;
            if (idx + 7 * block.x < n)
            {
                int a1 = g_idata[idx];
                int a2 = g_idata[idx + block.x];
                int a3 = g_idata[idx + 2 * block.x];
                int a4 = g_idata[idx + 3 * block.x];
                int b1 = g_idata[idx + 4 * block.x];
                int b2 = g_idata[idx + 5 * block.x];
                int b3 = g_idata[idx + 6 * block.x];
                int b4 = g_idata[idx + 7 * block.x];
                g_idata[idx] = a1 + a2 + a3 + a4 + b1 + b2 + b3 + b4;
            }
        }
        interleave(block, idata, 0);
        g_odata[bx] = idata[0];
    }
}

/* the device function unrollData8, for the block's threads */
static void unrollData8(dim3 block, unsigned int bx, int *g_idata, unsigned int n)
{
    unsigned int b = block.x;
    for (unsigned int tid = 0; tid < block.x; tid++)
    {
        unsigned int idx = bx * block.x * 8 + tid;
        if (idx + 7 * b < n)
        {
            g_idata[idx] = g_idata[idx] + g_idata[idx + b] + g_idata[idx + 2 * b]
                         + g_idata[idx + 3 * b] + g_idata[idx + 4 * b]
                         + g_idata[idx + 5 * b] + g_idata[idx + 6 * b]
                         + g_idata[idx + 7 * b];
        }
    }
}

/* the last warp's unrolled sum: one loop over the 32 lanes per statement */
static void warpUnroll(volatile int *vmem)
{
    static const int offsets[6] = {32, 16, 8, 4, 2, 1};
    for (int step = 0; step < 6; step++)
    {
        for (unsigned int tid = 0; tid < 32; tid++) vmem[tid] += vmem[tid + offsets[step]];
    }
}

static void reduceUnrollWarps8(dim3 grid, dim3 block, int *g_idata, int *g_odata, unsigned int n)
{
    for (unsigned int bx = 0; bx < grid.x; bx++)
    {
        int *idata = g_idata + bx * block.x * 8;
        unrollData8(block, bx, g_idata, n);
        interleave(block, idata, 32);
        warpUnroll(idata);
        g_odata[bx] = idata[0];
    }
}

/* the completely unrolled stride loop: `size` is blockDim.x or the template's iBlockSize */
static inline void completeUnroll(unsigned int size, dim3 block, int *idata)
{
    for (unsigned int tid = 0; tid < block.x; tid++)
        if (size >= 1024 && tid < 512) idata[tid] += idata[tid + 512];
    for (unsigned int tid = 0; tid < block.x; tid++)
        if (size >= 512 && tid < 256) idata[tid] += idata[tid + 256];
    for (unsigned int tid = 0; tid < block.x; tid++)
        if (size >= 256 && tid < 128) idata[tid] += idata[tid + 128];
    for (unsigned int tid = 0; tid < block.x; tid++)
        if (size >= 128 && tid < 64) idata[tid] += idata[tid + 64];
}

static void reduceCompleteUnrollWarps8(dim3 grid, dim3 block, int *g_idata, int *g_odata, unsigned int n)
{
    for (unsigned int bx = 0; bx < grid.x; bx++)
    {
        int *idata = g_idata + bx * block.x * 8;
        unrollData8(block, bx, g_idata, n);
        completeUnroll(block.x, block, idata);
        warpUnroll(idata);
        g_odata[bx] = idata[0];
    }
}

/* reduceCompleteUnroll<iBlockSize>: inlined with a constant size, as the template is instantiated */
static inline void reduceCompleteUnroll(unsigned int iBlockSize, dim3 grid, dim3 block, int *g_idata, int *g_odata,
                                        unsigned int n)
{
    for (unsigned int bx = 0; bx < grid.x; bx++)
    {
        int *idata = g_idata + bx * block.x * 8;
        unrollData8(block, bx, g_idata, n);
        completeUnroll(iBlockSize, block, idata);
        warpUnroll(idata);
        g_odata[bx] = idata[0];
    }
}

static const char *KERNELS[9] = {"reduceNeighbored", "reduceNeighboredLess", "reduceInterleaved",
                                 "reduceUnrolling2", "reduceUnrolling4", "reduceUnrolling8",
                                 "reduceUnrollWarps8", "reduceCompleteUnrollWarps8", "reduceCompleteUnroll"};
static const unsigned int FOLD[9] = {1, 1, 1, 2, 4, 8, 8, 8, 8};   /* data blocks per thread block */

typedef struct
{
    int kernel;
    dim3 grid, block;
    int *pristine, *idata, *odata;
    unsigned int n;
} Launch;

static void prepare(void *arg)
{
    Launch *l = arg;
    memcpy(l->idata, l->pristine, (size_t)l->n * sizeof(int));
}

static void run(void *arg)
{
    Launch *l = arg;
    switch (l->kernel)
    {
    case 0: reduceNeighbored(l->grid, l->block, l->idata, l->odata, l->n); break;
    case 1: reduceNeighboredLess(l->grid, l->block, l->idata, l->odata, l->n); break;
    case 2: reduceInterleaved(l->grid, l->block, l->idata, l->odata, l->n); break;
    case 3: reduceUnrolling2(l->grid, l->block, l->idata, l->odata, l->n); break;
    case 4: reduceUnrolling4(l->grid, l->block, l->idata, l->odata, l->n); break;
    case 5: reduceUnrolling8(l->grid, l->block, l->idata, l->odata, l->n); break;
    case 6: reduceUnrollWarps8(l->grid, l->block, l->idata, l->odata, l->n); break;
    case 7: reduceCompleteUnrollWarps8(l->grid, l->block, l->idata, l->odata, l->n); break;
    default:
        switch (l->block.x)
        {
        case 1024: reduceCompleteUnroll(1024, l->grid, l->block, l->idata, l->odata, l->n); break;
        case 512: reduceCompleteUnroll(512, l->grid, l->block, l->idata, l->odata, l->n); break;
        case 256: reduceCompleteUnroll(256, l->grid, l->block, l->idata, l->odata, l->n); break;
        case 128: reduceCompleteUnroll(128, l->grid, l->block, l->idata, l->odata, l->n); break;
        case 64: reduceCompleteUnroll(64, l->grid, l->block, l->idata, l->odata, l->n); break;
        }
    }
}

int main(int argc, char **argv)
{
    if (argc != 5)
    {
        fprintf(stderr, "usage: %s blocksize size mask min_seconds\n", argv[0]);
        return 2;
    }
    unsigned int blocksize = (unsigned int)atoi(argv[1]);
    unsigned int size = (unsigned int)atoi(argv[2]);
    int mask = atoi(argv[3]);
    double min_seconds = atof(argv[4]);
    unsigned int blocks = (size + blocksize - 1) / blocksize;

    Launch l = {0, dim(blocks, 1), dim(blocksize, 1), NULL, NULL, NULL, size};
    l.pristine = checked_malloc((size_t)size * sizeof(int));
    l.idata = checked_malloc((size_t)size * sizeof(int));
    l.odata = checked_malloc((size_t)blocks * sizeof(int));
    for (unsigned int i = 0; i < size; i++) l.pristine[i] = fill_int(i);

    for (int k = 0; k < 9; k++)
    {
        if (!(mask & (1 << k))) continue;
        l.kernel = k;
        l.grid = dim(blocks / FOLD[k], 1);
        int reps = 0;
        double seconds = time_runs(prepare, run, &l, min_seconds, &reps);
        printf("bench %s %.9f %d %d %d\n", KERNELS[k], seconds, reps, l.odata[0], l.odata[l.grid.x - 1]);
    }
    free(l.pristine);
    free(l.idata);
    free(l.odata);
    return 0;
}
