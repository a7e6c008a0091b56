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
__host__ __device__ int printf(const char *format, ...);
__host__ int fprintf(FILE *stream, const char *format, ...);
__host__ int sprintf(char *str, const char *format, ...);
__host__ int snprintf(char *str, size_t size, const char *format, ...);
__host__ int puts(const char *s);
__host__ int putchar(int c);
__host__ int fflush(FILE *stream);
__host__ FILE *fopen(const char *path, const char *mode);
__host__ int fclose(FILE *stream);
__host__ size_t fread(void *ptr, size_t size, size_t n, FILE *stream);
__host__ size_t fwrite(const void *ptr, size_t size, size_t n, FILE *stream);
#endif
