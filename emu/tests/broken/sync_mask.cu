/* Warp operations whose mask does not match the lanes that execute them
 * (undefined behaviour per the CUDA Programming Guide), and correct uses of
 * partial masks that must run clean:
 *   0  all 32 lanes call __shfl_down_sync(0x0000ffff, ...): lanes 16-31 are not in the mask;
 *   1  lanes 0-15 call __shfl_sync(0xffffffff, ...) in a branch; lanes 16-31 wait at the
 *      __syncthreads() after it;
 *   2  lanes 20-31 return early; lane 4 reads lane 20 (named in the full mask) in a shuffle;
 *   3  clean: lanes 0-15 alone reduce with __shfl_down_sync(0x0000ffff, v, offset, 16),
 *      the other lanes return first;
 *   4  clean: lanes 0-15 alone reduce with mask 0x0000ffff and width 32 (lanes 8-15 read
 *      lanes 16-23, outside the mask: values nobody uses), then __ballot_sync and
 *      __syncwarp with the same partial mask. */
#include "broken.h"

#include <cuda_runtime.h>

__global__ void not_in_mask(const int *in, int *out)
{
    int v = in[threadIdx.x];
    v += __shfl_down_sync(0x0000ffffu, v, 1); // @not-in-mask
    out[threadIdx.x] = v;
}

__global__ void lanes_at_barrier(const int *in, int *out)
{
    int v = in[threadIdx.x];
    if (threadIdx.x < 16)
        v = __shfl_sync(0xffffffffu, v, 0); // @divergent-shfl
    __syncthreads(); // @divergent-barrier
    out[threadIdx.x] = v;
}

__global__ void read_exited(const int *in, int *out)
{
    if (threadIdx.x >= 20)
        return;
    int v = in[threadIdx.x];
    v += __shfl_down_sync(0xffffffffu, v, 16); // @read-exited
    out[threadIdx.x] = v;
}

__global__ void half_warp_width(const int *in, int *out)
{
    if (threadIdx.x >= 16)
        return;
    int v = in[threadIdx.x];
    for (int offset = 8; offset > 0; offset /= 2)
        v += __shfl_down_sync(0x0000ffffu, v, offset, 16);
    if (threadIdx.x == 0)
        out[0] = v;
}

__global__ void half_warp_votes(const int *in, int *out)
{
    int v = in[threadIdx.x];
    if (threadIdx.x < 16) {
        for (int offset = 8; offset > 0; offset /= 2)
            v += __shfl_down_sync(0x0000ffffu, v, offset);
        unsigned int odd = __ballot_sync(0x0000ffffu, in[threadIdx.x] & 1);
        __syncwarp(0x0000ffffu);
        if (threadIdx.x == 0)
            out[0] = v + (int)(odd == 0xAAAAu ? 1000 : 0);
    }
}

extern "C" int broken_sync_mask(int variant, int *sum)
{
    int h[32], *in, *out;
    for (int i = 0; i < 32; i++)
        h[i] = i;
    cudaMalloc((void **)&in, sizeof h);
    cudaMalloc((void **)&out, sizeof h);
    cudaMemcpy(in, h, sizeof h, cudaMemcpyHostToDevice);
    switch (variant) {
    case 0: not_in_mask<<<1, 32>>>(in, out); break;
    case 1: lanes_at_barrier<<<1, 32>>>(in, out); break;
    case 2: read_exited<<<1, 32>>>(in, out); break;
    case 3: half_warp_width<<<1, 32>>>(in, out); break;
    default: half_warp_votes<<<1, 32>>>(in, out); break;
    }
    int e = cudaDeviceSynchronize();
    if (e == 0)
        cudaMemcpy(sum, out, sizeof(int), cudaMemcpyDeviceToHost);
    return e;
}
