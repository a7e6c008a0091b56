/* Plain C helpers linked into the CUDA program through extern "C". */
#include "stats.h"

int stats_calls = 0;

double mean_of(const int *values, int n)
{
    long sum = 0;
    int i;
    stats_calls++;
    for (i = 0; i < n; i++) sum += values[i];
    return n ? (double)sum / n : 0.0;
}

int max_of(const int *values, int n)
{
    int m = values[0];
    int i;
    stats_calls++;
    for (i = 1; i < n; i++)
        if (values[i] > m) m = values[i];
    return m;
}
