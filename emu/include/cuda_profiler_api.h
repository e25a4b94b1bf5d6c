/* cuda_profiler_api.h of the CPU emulator: cudaProfilerStart/Stop (declared in cuda_runtime.h)
 * succeed and do nothing; there is no profiler to start. */
#ifndef EMU_CUDA_PROFILER_API_H
#define EMU_CUDA_PROFILER_API_H
#include "cuda_runtime.h"
#endif
