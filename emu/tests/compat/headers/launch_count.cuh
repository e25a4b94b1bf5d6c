// Included by tile_sum.cuh with a path relative to it: a device variable, rewritten as well.
#ifndef LAUNCH_COUNT_CUH
#define LAUNCH_COUNT_CUH
__device__ int launches_seen;
#endif
