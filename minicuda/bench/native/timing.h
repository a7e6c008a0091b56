/*
 * timing.h: what the native baselines of `minicuda bench` share.
 *
 * A kernel is translated to a plain C function that loops over the blocks of its
 * grid and, inside, over the threads of a block; code between two __syncthreads()
 * (or two statements of warp-synchronous code) is one loop over the block's
 * threads.  time_runs() times such a function the way bench reports it: one
 * untimed warm-up run, then timed runs until min_seconds have passed (at least
 * three), each after an untimed prepare() that restores the input.
 */
#ifndef BENCH_TIMING_H
#define BENCH_TIMING_H

#include <stdio.h>
#include <stdlib.h>
#include <time.h>

typedef struct { unsigned int x, y, z; } dim3;

static inline dim3 dim(unsigned int x, unsigned int y)
{
    dim3 d = {x, y, 1};
    return d;
}

static inline double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

/* the mean seconds of one run; *reps is the number of timed runs */
static inline double time_runs(void (*prepare)(void *), void (*run)(void *), void *arg, double min_seconds, int *reps)
{
    double total = 0.0;
    int n = 0;
    prepare(arg);
    run(arg);
    while (n < 3 || total < min_seconds)
    {
        prepare(arg);
        double start = now();
        run(arg);
        total += now() - start;
        n++;
    }
    *reps = n;
    return total / n;
}

/* the benchmark's input, as the minicuda drivers fill it */
static inline int fill_int(unsigned int i)
{
    return (int)((i * 37u + 11u) & 0xFF);
}

static inline float fill_float(unsigned int i, unsigned int mul, unsigned int add)
{
    return (float)((i * mul + add) & 0xFF) / 10.0f;
}

static inline void *checked_malloc(size_t bytes)
{
    void *p = malloc(bytes);
    if (p == NULL)
    {
        fprintf(stderr, "out of memory (%zu bytes)\n", bytes);
        exit(1);
    }
    return p;
}

#endif
