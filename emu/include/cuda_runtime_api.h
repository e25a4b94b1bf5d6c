/* cuda_runtime_api.h of the CPU emulator: everything is in cuda_runtime.h. */
#ifndef EMU_CUDA_RUNTIME_API_H
#define EMU_CUDA_RUNTIME_API_H
#include "cuda_runtime.h"
#endif
