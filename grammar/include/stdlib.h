/* minicuda's <stdlib.h>: the C library subset minicuda runs. */
#ifndef __MINICUDA_STDLIB_H
#define __MINICUDA_STDLIB_H
#include <stddef.h>
#define EXIT_SUCCESS 0
#define EXIT_FAILURE 1
#define RAND_MAX 2147483647
__host__ __device__ void *malloc(size_t size);
__host__ void *calloc(size_t nmemb, size_t size);
__host__ void *realloc(void *ptr, size_t size);
__host__ __device__ void free(void *ptr);
__host__ int atoi(const char *s);
__host__ long atol(const char *s);
__host__ long long atoll(const char *s);
__host__ double atof(const char *s);
__host__ long strtol(const char *s, char **end, int base);
__host__ long long strtoll(const char *s, char **end, int base);
__host__ unsigned long strtoul(const char *s, char **end, int base);
__host__ unsigned long long strtoull(const char *s, char **end, int base);
__host__ double strtod(const char *s, char **end);
__host__ float strtof(const char *s, char **end);
__host__ int rand(void);
__host__ void srand(unsigned int seed);
__host__ void exit(int status);
__host__ void abort(void);
__host__ char *getenv(const char *name);
__host__ int system(const char *command);
__host__ __device__ int abs(int x);
__host__ __device__ long labs(long x);
__host__ __device__ long long llabs(long long x);
#endif
