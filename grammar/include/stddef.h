/* minicuda's <stddef.h> */
#ifndef __MINICUDA_STDDEF_H
#define __MINICUDA_STDDEF_H
typedef unsigned long size_t;
typedef long ptrdiff_t;
#define NULL 0
#endif
