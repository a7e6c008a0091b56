/* minicuda's <pthread.h>: declared so that programs compile; minicuda runs host code on
   one thread, so a call of any of these is an error when it runs. */
#ifndef __MINICUDA_PTHREAD_H
#define __MINICUDA_PTHREAD_H
typedef unsigned long pthread_t;
struct __minicuda_pthread_attr { long __align[7]; };
typedef struct __minicuda_pthread_attr pthread_attr_t;
struct __minicuda_pthread_mutex { long __align[5]; };
typedef struct __minicuda_pthread_mutex pthread_mutex_t;
struct __minicuda_pthread_cond { long __align[6]; };
typedef struct __minicuda_pthread_cond pthread_cond_t;
#define PTHREAD_MUTEX_INITIALIZER { { 0 } }
__host__ int pthread_create(pthread_t *__thread, const pthread_attr_t *__attr, ...);
__host__ int pthread_join(pthread_t __thread, void **__result);
__host__ void pthread_exit(void *__result);
__host__ pthread_t pthread_self(void);
__host__ int pthread_attr_init(pthread_attr_t *__attr);
__host__ int pthread_attr_destroy(pthread_attr_t *__attr);
__host__ int pthread_mutex_init(pthread_mutex_t *__mutex, const void *__attr);
__host__ int pthread_mutex_lock(pthread_mutex_t *__mutex);
__host__ int pthread_mutex_unlock(pthread_mutex_t *__mutex);
__host__ int pthread_mutex_destroy(pthread_mutex_t *__mutex);
__host__ int pthread_cond_init(pthread_cond_t *__cond, const void *__attr);
__host__ int pthread_cond_wait(pthread_cond_t *__cond, pthread_mutex_t *__mutex);
__host__ int pthread_cond_signal(pthread_cond_t *__cond);
__host__ int pthread_cond_broadcast(pthread_cond_t *__cond);
__host__ int pthread_cond_destroy(pthread_cond_t *__cond);
#endif
