/* minicuda's <unistd.h>: sleeping. */
#ifndef __MINICUDA_UNISTD_H
#define __MINICUDA_UNISTD_H
#include <stddef.h>
typedef unsigned int useconds_t;
__host__ unsigned int sleep(unsigned int __seconds);
__host__ int usleep(useconds_t __usec);
#endif
