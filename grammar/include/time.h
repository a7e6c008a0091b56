/* minicuda's <time.h> */
#ifndef __MINICUDA_TIME_H
#define __MINICUDA_TIME_H
#include <stddef.h>
typedef long time_t;
typedef long clock_t;
#define CLOCKS_PER_SEC 1000000l
struct timeval { long tv_sec; long tv_usec; };
struct timespec { long tv_sec; long tv_nsec; };
__host__ time_t time(time_t *__t);
__host__ __device__ clock_t clock(void);
__host__ double difftime(time_t __a, time_t __b);
#endif
