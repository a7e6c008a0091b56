/* minicuda's <errno.h>: errno as glibc defines it, Linux's numbers. */
#ifndef __MINICUDA_ERRNO_H
#define __MINICUDA_ERRNO_H
__host__ int *__errno_location(void);
#define errno (*__errno_location())
#define EPERM 1
#define ENOENT 2
#define EIO 5
#define EBADF 9
#define ENOMEM 12
#define EACCES 13
#define EEXIST 17
#define ENOTDIR 20
#define EISDIR 21
#define EINVAL 22
#define ENOSPC 28
#define ESPIPE 29
#define EDOM 33
#define ERANGE 34
#endif
