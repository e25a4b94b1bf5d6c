// A header of the program's own, with what emucc must rewrite in it too: dynamic shared memory,
// static shared memory, a __device__ variable and a launch.
#ifndef TILE_SUM_CUH
#define TILE_SUM_CUH
#include "launch_count.cuh"

__global__ void tile_sum(const int *in, int *out)
{
    extern __shared__ int buffer[];
    __shared__ int total;
    unsigned int t = threadIdx.x;
    buffer[t] = in[blockIdx.x * blockDim.x + t];
    if (t == 0)
        total = 0;
    __syncthreads();
    atomicAdd(&total, buffer[t]);
    __syncthreads();
    if (t == 0) {
        out[blockIdx.x] = total;
        atomicAdd(&launches_seen, 1);
    }
}

static inline void launch_tile_sum(const int *in, int *out, int blocks, int threads)
{
    tile_sum<<<blocks, threads, threads * sizeof(int)>>>(in, out);
}
#endif
