/*
 * warpLock.cu
 *
 * A spin lock taken by every thread of the same warp, one after another.
 *
 * Each thread tries to swap the lock word from 0 to 1 with atomicCAS. The
 * one thread that sees the old value 0 owns the lock: it increments the
 * shared counter, makes the write visible with __threadfence, and releases
 * the lock with atomicExch. The other threads of its warp keep trying.
 *
 * The winner and the losers are in the same warp, so whether this finishes
 * depends on how the hardware schedules a divergent warp:
 *
 *  - Pre-Volta GPUs keep one program counter per warp and a SIMT
 *    reconvergence stack. A divergent warp runs one path at a time and only
 *    switches at the reconvergence point. If the losers' spinning path is
 *    run first, the winner never gets to release the lock: the warp
 *    deadlocks.
 *  - Volta and later (independent thread scheduling) keep a program
 *    counter per thread and interleave divergent paths (the YIELD in the
 *    spin loop), so the winner always progresses and every lock completes.
 *
 * Two forms of the loop are given:
 *
 *   mode 0, warpLockCounter: the critical section is inside the loop, under
 *       the successful CAS, with a done flag. Its
 *       reconvergence point is the end of the if, so a SIMT stack runs the
 *       winner's path to the release before the losers retry; it completes
 *       on old GPUs as long as the compiler keeps that shape.
 *   mode 1, spinThenEnterCounter: spin until the CAS succeeds, then run
 *       the critical section after the loop. Here the winner waits at the
 *       loop exit for the losers, which wait for the winner: the textbook
 *       intra-warp deadlock on a SIMT-stack GPU. Volta and later finish it.
 *       This is the default.
 *
 * Usage: ./warpLock [threads per block] [blocks] [mode]   (defaults 32 1 1)
 * Prints "counter = N (expected N)" and exits with 0 when they agree.
 */

#include <cuda_runtime.h>
#include <stdio.h>
#include <stdlib.h>

#define CHECK(call)                                                        \
{                                                                          \
    const cudaError_t error = call;                                        \
    if (error != cudaSuccess)                                              \
    {                                                                      \
        printf("Error: %s:%d, ", __FILE__, __LINE__);                      \
        printf("code:%d, reason: %s\n", (int)error, cudaGetErrorString(error)); \
        exit(1);                                                           \
    }                                                                      \
}

// mode 0: take the lock and do the work in the same branch
__global__ void warpLockCounter(int *lock, int *counter)
{
    bool done = false;

    while (!done)
    {
        if (atomicCAS(lock, 0, 1) == 0)
        {
            // critical section: one thread at a time
            *counter = *counter + 1;

            // make the new counter visible before the lock is seen free
            __threadfence();

            // release the lock
            atomicExch(lock, 0);
            done = true;
        }
    }
}

// mode 1: spin until the lock is taken, then do the work after the loop
__global__ void spinThenEnterCounter(int *lock, int *counter)
{
    while (atomicCAS(lock, 0, 1) != 0)
        ;

    // critical section
    *counter = *counter + 1;
    __threadfence();

    // release the lock
    atomicExch(lock, 0);
}

int main(int argc, char **argv)
{
    // set up device
    int dev = 0;
    cudaDeviceProp deviceProp;
    CHECK(cudaGetDeviceProperties(&deviceProp, dev));
    printf("%s using Device %d: %s (compute capability %d.%d)\n", argv[0],
           dev, deviceProp.name, deviceProp.major, deviceProp.minor);

    // one warp in one block unless told otherwise
    int nThreads = 32;
    int nBlocks = 1;
    int mode = 1;
    if (argc > 1) nThreads = atoi(argv[1]);
    if (argc > 2) nBlocks = atoi(argv[2]);
    if (argc > 3) mode = atoi(argv[3]);

    dim3 block(nThreads, 1);
    dim3 grid(nBlocks, 1);
    printf("%s <<<%d, %d>>>\n",
           mode == 0 ? "warpLockCounter" : "spinThenEnterCounter",
           grid.x, block.x);

    // the lock word and the counter live in global memory, both start at 0
    int h_lock = 0;
    int h_counter = 0;
    int *d_lock = NULL;
    int *d_counter = NULL;
    CHECK(cudaMalloc((void **)&d_lock, sizeof(int)));
    CHECK(cudaMalloc((void **)&d_counter, sizeof(int)));
    CHECK(cudaMemcpy(d_lock, &h_lock, sizeof(int), cudaMemcpyHostToDevice));
    CHECK(cudaMemcpy(d_counter, &h_counter, sizeof(int), cudaMemcpyHostToDevice));

    // every thread enters the critical section exactly once
    if (mode == 0)
        warpLockCounter<<<grid, block>>>(d_lock, d_counter);
    else
        spinThenEnterCounter<<<grid, block>>>(d_lock, d_counter);
    CHECK(cudaGetLastError());
    CHECK(cudaDeviceSynchronize());

    // copy the counter back and check it
    CHECK(cudaMemcpy(&h_counter, d_counter, sizeof(int), cudaMemcpyDeviceToHost));
    int expected = nThreads * nBlocks;
    printf("counter = %d (expected %d)\n", h_counter, expected);

    CHECK(cudaFree(d_lock));
    CHECK(cudaFree(d_counter));
    CHECK(cudaDeviceReset());

    return (h_counter == expected) ? 0 : 1;
}
