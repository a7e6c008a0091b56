/* minicuda's <device_launch_parameters.h> */
#include <cuda_runtime.h>
