#ifndef STATS_H
#define STATS_H

#ifdef __cplusplus
extern "C" {
#endif

/* Statistics over an int array, written in C (stats.c). */
double mean_of(const int *values, int n);
int max_of(const int *values, int n);
extern int stats_calls;

#ifdef __cplusplus
}
#endif

#endif
