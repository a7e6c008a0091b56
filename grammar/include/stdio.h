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
__host__ __device__ int printf(const char *format, ...);
__host__ int fprintf(FILE *stream, const char *format, ...);
__host__ int sprintf(char *str, const char *format, ...);
__host__ int snprintf(char *str, size_t size, const char *format, ...);
__host__ int scanf(const char *format, ...);
__host__ int fscanf(FILE *stream, const char *format, ...);
__host__ int sscanf(const char *str, const char *format, ...);
__host__ int puts(const char *s);
__host__ int putchar(int c);
__host__ int fputs(const char *s, FILE *stream);
__host__ int fputc(int c, FILE *stream);
__host__ int putc(int c, FILE *stream);
__host__ int getchar(void);
__host__ int fgetc(FILE *stream);
__host__ int getc(FILE *stream);
__host__ int ungetc(int c, FILE *stream);
__host__ char *fgets(char *s, int size, FILE *stream);
__host__ int fflush(FILE *stream);
__host__ FILE *fopen(const char *path, const char *mode);
__host__ int fclose(FILE *stream);
__host__ size_t fread(void *ptr, size_t size, size_t n, FILE *stream);
__host__ size_t fwrite(const void *ptr, size_t size, size_t n, FILE *stream);
__host__ int feof(FILE *stream);
__host__ int ferror(FILE *stream);
__host__ void clearerr(FILE *stream);
__host__ int fseek(FILE *stream, long offset, int whence);
__host__ long ftell(FILE *stream);
__host__ void rewind(FILE *stream);
__host__ int remove(const char *path);
__host__ int rename(const char *oldpath, const char *newpath);
__host__ void perror(const char *s);
#endif
