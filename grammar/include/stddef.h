/* minicuda's <stddef.h> */
#ifndef __MINICUDA_STDDEF_H
#define __MINICUDA_STDDEF_H
typedef unsigned long size_t;
typedef long ptrdiff_t;
#define NULL 0
/* a member's offset, as the address of the member of an object at address 0 (the classic
   definition; it is a value, not an integral constant expression, in minicuda) */
#define offsetof(type, member) ((size_t)&(((type *)0)->member))
#endif
