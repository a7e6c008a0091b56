// minicuda-run: -use_fast_math
// ftz_bits.h built with -use_fast_math, which implies -ftz=true.
#include "ftz_bits.h"
