/* `stride >> 1` instead of `stride >>= 1`: the stride never changes and the
 * tree loop never ends. On a GPU the kernel hangs until the watchdog (if any)
 * kills it; the emulator stops it after EMU_STEP_LIMIT memory accesses (or
 * EMU_TIME_LIMIT_S seconds) with "probable endless loop", naming the line. */
#include "broken.h"

#include <cuda_runtime.h>

/* the bug is the point of this file: clang's "expression result unused" would say it first */
#pragma clang diagnostic ignored "-Wunused-value"

#define BLOCK 256

__global__ void reduce_endless(const int *in, int *out)
{
    __shared__ int sdata[BLOCK];
    unsigned int tid = threadIdx.x;
    sdata[tid] = in[blockIdx.x * blockDim.x + tid];
    __syncthreads();
    for (unsigned int stride = blockDim.x / 2; stride > 0; stride >> 1) { /* BUG: stride >>= 1 */
        if (tid < stride)
            sdata[tid] += sdata[tid + stride]; // @endless
        __syncthreads();
    }
    if (tid == 0)
        out[blockIdx.x] = sdata[0];
}

extern "C" int broken_endless_stride(void)
{
    int *in, *out;
    cudaMalloc((void **)&in, 2 * BLOCK * sizeof(int));
    cudaMalloc((void **)&out, 2 * sizeof(int));
    cudaMemset(in, 0, 2 * BLOCK * sizeof(int));
    reduce_endless<<<2, BLOCK>>>(in, out);
    return cudaDeviceSynchronize();
}
