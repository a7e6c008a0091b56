/* minicuda's <unistd.h>: sleeping. */
#ifndef __MINICUDA_UNISTD_H
#define __MINICUDA_UNISTD_H
#include <stddef.h>
typedef unsigned int useconds_t;
__host__ unsigned int sleep(unsigned int seconds);
__host__ int usleep(useconds_t usec);
#endif
