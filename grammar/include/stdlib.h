/* minicuda's <stdlib.h>: the C library subset minicuda runs. */
#ifndef __MINICUDA_STDLIB_H
#define __MINICUDA_STDLIB_H
#include <stddef.h>
#define EXIT_SUCCESS 0
#define EXIT_FAILURE 1
#define RAND_MAX 2147483647
__host__ __device__ void *malloc(size_t __size);
__host__ void *calloc(size_t __nmemb, size_t __size);
__host__ void *realloc(void *__ptr, size_t __size);
__host__ __device__ void free(void *__ptr);
__host__ int atoi(const char *__s);
__host__ long atol(const char *__s);
__host__ long long atoll(const char *__s);
__host__ double atof(const char *__s);
__host__ long strtol(const char *__s, char **__end, int __base);
__host__ long long strtoll(const char *__s, char **__end, int __base);
__host__ unsigned long strtoul(const char *__s, char **__end, int __base);
__host__ unsigned long long strtoull(const char *__s, char **__end, int __base);
__host__ double strtod(const char *__s, char **__end);
__host__ float strtof(const char *__s, char **__end);
__host__ void qsort(void *__base, size_t __nmemb, size_t __size, int (*__compar)(const void *, const void *));
__host__ void *bsearch(const void *__key, const void *__base, size_t __nmemb, size_t __size,
                       int (*__compar)(const void *, const void *));
__host__ int rand(void);
__host__ void srand(unsigned int __seed);
__host__ void exit(int __status);
__host__ void abort(void);
__host__ char *getenv(const char *__name);
__host__ int system(const char *__command);
__host__ __device__ int abs(int __x);
__host__ __device__ long labs(long __x);
__host__ __device__ long long llabs(long long __x);
#ifdef __cplusplus
/* C++'s abs of every arithmetic type, in the global namespace as CUDA's headers and libstdc++'s
   <stdlib.h> declare it: abs of a float is a float */
__host__ __device__ long abs(long __x);
__host__ __device__ long long abs(long long __x);
__host__ __device__ float abs(float __x);
__host__ __device__ double abs(double __x);
#endif
#endif
