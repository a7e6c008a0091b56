/* minicuda's <omp.h>: host code runs on one thread; #pragma omp is ignored. */
#ifndef __MINICUDA_OMP_H
#define __MINICUDA_OMP_H
__host__ double omp_get_wtime(void);
__host__ int omp_get_num_threads(void);
__host__ int omp_get_max_threads(void);
__host__ int omp_get_thread_num(void);
__host__ int omp_get_num_procs(void);
__host__ void omp_set_num_threads(int __n);
#endif
