// A book.h-style header for the corpus (written for it): HANDLE_ERROR, HANDLE_NULL,
// imin and a small host-side random helper, as the CUDA by Example programs use them.
#ifndef CORPUS_BOOK_H
#define CORPUS_BOOK_H

#include <stdio.h>
#include <stdlib.h>

static void HandleError(cudaError_t err, const char *file, int line)
{
    if (err != cudaSuccess) {
        printf("%s in %s at line %d\n", cudaGetErrorString(err), file, line);
        exit(EXIT_FAILURE);
    }
}
#define HANDLE_ERROR(err) (HandleError(err, __FILE__, __LINE__))

#define HANDLE_NULL(a) {if (a == NULL) { \
                            printf("Host memory failed in %s at line %d\n", \
                                   __FILE__, __LINE__); \
                            exit(EXIT_FAILURE);}}

#define imin(a, b) (a < b ? a : b)
#define imax(a, b) (a > b ? a : b)

template <typename T>
void *big_random_block_of(int count, unsigned seed)
{
    T *data = (T *)malloc(count * sizeof(T));
    HANDLE_NULL(data);
    for (int i = 0; i < count; i++) {
        seed = seed * 1664525u + 1013904223u;
        data[i] = (T)(seed >> 24);
    }
    return data;
}

#endif
