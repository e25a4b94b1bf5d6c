/* cuda.h of the CPU emulator: the runtime API is all the labs use. */
#ifndef EMU_CUDA_H
#define EMU_CUDA_H
#include "cuda_runtime.h"
#endif
