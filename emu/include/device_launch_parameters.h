/* device_launch_parameters.h of the CPU emulator: threadIdx, blockIdx, blockDim,
 * gridDim and warpSize come from cuda_runtime.h. */
#ifndef EMU_DEVICE_LAUNCH_PARAMETERS_H
#define EMU_DEVICE_LAUNCH_PARAMETERS_H
#include "cuda_runtime.h"
#endif
