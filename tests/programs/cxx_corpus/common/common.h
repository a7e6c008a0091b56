// Error checking and small host utilities shared by the corpus programs, in the style
// of the textbook's common.h (written for this corpus).
#ifndef CORPUS_COMMON_H
#define CORPUS_COMMON_H

#include <stdio.h>
#include <stdlib.h>
#include <sys/time.h>

#define CHECK(call)                                                            \
{                                                                              \
    const cudaError_t error = call;                                            \
    if (error != cudaSuccess)                                                  \
    {                                                                          \
        fprintf(stderr, "Error: %s:%d, ", __FILE__, __LINE__);                 \
        fprintf(stderr, "code: %d, reason: %s\n", error,                       \
                cudaGetErrorString(error));                                    \
        exit(1);                                                               \
    }                                                                          \
}

inline double seconds()
{
    struct timeval tp;
    gettimeofday(&tp, NULL);
    return ((double)tp.tv_sec + (double)tp.tv_usec * 1.e-6);
}

inline void initialData(float *ip, int size, unsigned seed)
{
    for (int i = 0; i < size; i++)
    {
        seed = seed * 1103515245u + 12345u;
        ip[i] = (float)((seed >> 16) & 0xFF) / 16.0f;
    }
}

inline int checkResult(const float *hostRef, const float *gpuRef, const int N)
{
    double epsilon = 1.0E-8;
    for (int i = 0; i < N; i++)
    {
        if (abs(hostRef[i] - gpuRef[i]) > epsilon)
        {
            printf("Arrays do not match!\n");
            printf("host %5.2f gpu %5.2f at current %d\n", hostRef[i], gpuRef[i], i);
            return 0;
        }
    }
    printf("Arrays match.\n");
    return 1;
}

#endif // CORPUS_COMMON_H
