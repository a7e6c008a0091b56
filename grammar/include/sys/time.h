/* minicuda's <sys/time.h> */
#ifndef __MINICUDA_SYS_TIME_H
#define __MINICUDA_SYS_TIME_H
#include <time.h>
struct timezone { int tz_minuteswest; int tz_dsttime; };
__host__ int gettimeofday(struct timeval *__tv, void *__tz);
#endif
