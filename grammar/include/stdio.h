/* minicuda's <stdio.h>: FILE streams on real files (vm/stdio.py) and the standard streams. */
#ifndef __MINICUDA_STDIO_H
#define __MINICUDA_STDIO_H
#include <stddef.h>
struct _IO_FILE;
typedef struct _IO_FILE FILE;
extern __host__ FILE *stdout;
extern __host__ FILE *stderr;
extern __host__ FILE *stdin;
#define EOF (-1)
#define BUFSIZ 8192
#define FILENAME_MAX 4096
#define SEEK_SET 0
#define SEEK_CUR 1
#define SEEK_END 2
__host__ __device__ int printf(const char *__format, ...);
__host__ int fprintf(FILE *__stream, const char *__format, ...);
__host__ int sprintf(char *__str, const char *__format, ...);
__host__ int snprintf(char *__str, size_t __size, const char *__format, ...);
__host__ int scanf(const char *__format, ...);
__host__ int fscanf(FILE *__stream, const char *__format, ...);
__host__ int sscanf(const char *__str, const char *__format, ...);
__host__ int puts(const char *__s);
__host__ int putchar(int __c);
__host__ int fputs(const char *__s, FILE *__stream);
__host__ int fputc(int __c, FILE *__stream);
__host__ int putc(int __c, FILE *__stream);
__host__ int getchar(void);
__host__ int fgetc(FILE *__stream);
__host__ int getc(FILE *__stream);
__host__ int ungetc(int __c, FILE *__stream);
__host__ char *fgets(char *__s, int __size, FILE *__stream);
__host__ int fflush(FILE *__stream);
__host__ FILE *fopen(const char *__path, const char *__mode);
__host__ int fclose(FILE *__stream);
__host__ size_t fread(void *__ptr, size_t __size, size_t __n, FILE *__stream);
__host__ size_t fwrite(const void *__ptr, size_t __size, size_t __n, FILE *__stream);
__host__ int feof(FILE *__stream);
__host__ int ferror(FILE *__stream);
__host__ void clearerr(FILE *__stream);
__host__ int fseek(FILE *__stream, long __offset, int __whence);
__host__ long ftell(FILE *__stream);
__host__ void rewind(FILE *__stream);
__host__ int remove(const char *__path);
__host__ int rename(const char *__oldpath, const char *__newpath);
__host__ void perror(const char *__s);
#endif
