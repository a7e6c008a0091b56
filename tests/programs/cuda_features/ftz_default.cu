// minicuda-run:
// ftz_bits.h built as nvcc builds it by default (-ftz=false): subnormals kept.
#include "ftz_bits.h"
