/* minicuda's <stdio.h> */
#ifndef __MINICUDA_STDIO_H
#define __MINICUDA_STDIO_H
#include <stddef.h>
struct _IO_FILE;
typedef struct _IO_FILE FILE;
extern __host__ FILE *stdout;
extern __host__ FILE *stderr;
extern __host__ FILE *stdin;
#define EOF (-1)
__host__ __device__ int printf(const char *__format, ...);
__host__ int fprintf(FILE *__stream, const char *__format, ...);
__host__ int sprintf(char *__str, const char *__format, ...);
__host__ int snprintf(char *__str, size_t __size, const char *__format, ...);
__host__ int puts(const char *__s);
__host__ int putchar(int __c);
__host__ int fflush(FILE *__stream);
__host__ FILE *fopen(const char *__path, const char *__mode);
__host__ int fclose(FILE *__stream);
__host__ size_t fread(void *__ptr, size_t __size, size_t __n, FILE *__stream);
__host__ size_t fwrite(const void *__ptr, size_t __size, size_t __n, FILE *__stream);
#endif
