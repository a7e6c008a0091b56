// minicuda-run: -ftz=true
// ftz_bits.h built with -ftz=true: subnormal f32 operands and results flushed to zero.
#include "ftz_bits.h"
