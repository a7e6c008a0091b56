/* minicuda's <malloc.h>: malloc and free, as glibc's brings them. */
#include <stdlib.h>
