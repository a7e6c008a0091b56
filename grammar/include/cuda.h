/* minicuda's <cuda.h> */
#include <cuda_runtime.h>
