/* minicuda's <string.h> */
#ifndef __MINICUDA_STRING_H
#define __MINICUDA_STRING_H
#include <stddef.h>
__host__ __device__ void *memset(void *__s, int __c, size_t __n);
__host__ __device__ void *memcpy(void *__dst, const void *__src, size_t __n);
__host__ void *memmove(void *__dst, const void *__src, size_t __n);
__host__ int memcmp(const void *__a, const void *__b, size_t __n);
__host__ size_t strlen(const char *__s);
__host__ int strcmp(const char *__a, const char *__b);
__host__ int strncmp(const char *__a, const char *__b, size_t __n);
__host__ char *strcpy(char *__dst, const char *__src);
__host__ char *strncpy(char *__dst, const char *__src, size_t __n);
__host__ char *strcat(char *__dst, const char *__src);
__host__ char *strchr(const char *__s, int __c);
__host__ char *strstr(const char *__s, const char *__t);
__host__ char *strerror(int __errnum);
#endif
