/* minicuda's <assert.h> */
#ifndef __MINICUDA_ASSERT_H
#define __MINICUDA_ASSERT_H
__host__ __device__ void __assert_fail(const char *__expr, const char *__file, unsigned int __line, const char *__func);
#ifdef NDEBUG
#define assert(e) ((void)0)
#else
#define assert(e) ((e) ? (void)0 : __assert_fail(#e, __FILE__, __LINE__, __PRETTY_FUNCTION__))
#endif
#endif
